import type { LoadedUser, Sql } from "./load";
import { naiveFilter, type Scenario } from "./scenarios";

/**
 * One request of the scenario through the API, checked against the database
 * itself: a list's total and first page must equal what plain SQL finds with
 * the contract's semantics (ILIKE substring, updatedAt then id order).
 * Returns a description of the first disagreement, or null.
 */
export async function checkScenario(options: { scenario: Scenario; user: LoadedUser; sql: Sql; appUrl: string; token: string }): Promise<string | null> {
  const { scenario, user, sql, appUrl, token } = options;
  const request = scenario.api(user);
  const path = request.paths[0]!;
  const res = await fetch(`${appUrl}${path}`, {
    method: request.method,
    headers: { "x-session-token": token, ...(request.body ? { "content-type": "application/json" } : {}) },
    body: request.body,
  });
  const body = (await res.json()) as { notes?: { id: string }[]; total?: number; note?: { id: string } };
  const expectedStatus = request.method === "POST" ? 201 : 200;
  if (res.status !== expectedStatus) return `status ${res.status}, expected ${expectedStatus}`;
  if (!path.startsWith("/api/notes?") && path !== "/api/notes") return body.note ? null : "no note in the response";
  if (request.method !== "GET") return null;

  const query = new URL(path, appUrl).searchParams;
  const { clause, params } = naiveFilter(user.userId, {
    tagId: query.get("tagId") ?? undefined,
    terms: (query.get("search") ?? "").split(/\s+/).filter(Boolean),
  });
  const offset = Number(query.get("offset") ?? 0);
  if (query.get("sort") === "relevance") {
    // Ranked: the same matches, in another order.
    const { rows: matches } = await sql.query<{ id: string }>(`SELECT n.id FROM notes n WHERE ${clause}`, params);
    const ids = new Set(matches.map((row) => row.id));
    if (body.total !== ids.size) return `total ${body.total}, database has ${ids.size}`;
    const notes = body.notes ?? [];
    if (notes.length !== Math.min(100, ids.size) || !notes.every((note) => ids.has(note.id))) return "ranked page is not a page of the matches";
    return null;
  }
  const [{ rows: page }, { rows: count }] = [
    await sql.query<{ id: string }>(`SELECT n.id FROM notes n WHERE ${clause} ORDER BY n.updated_at DESC, n.id DESC LIMIT 100 OFFSET ${offset}`, params),
    await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM notes n WHERE ${clause}`, params),
  ];
  if (body.total !== count[0]!.total) return `total ${body.total}, database has ${count[0]!.total}`;
  const ids = (body.notes ?? []).map((note) => note.id).join(",");
  if (ids !== page.map((row) => row.id).join(",")) return "first page differs from the database's order";
  return null;
}
