import { MARKERS } from "./generate";
import type { LoadedUser, Sql } from "./load";

type ApiRequest = { method: "GET" | "POST" | "PATCH"; paths: string[]; body?: string };

export type Scenario = {
  name: string;
  kind: "read" | "write";
  api(user: LoadedUser): ApiRequest;
  /**
   * The obvious SQL for the same request, through a plain driver: the page
   * (with ILIKE over the trigram indexes for a search) and `count(*)` for the
   * exact total. The floor the API is measured against.
   */
  naive(sql: Sql, user: LoadedUser, iteration: number): Promise<unknown>;
};

const COLUMNS = "n.id, n.title, n.content, n.content_text, n.created_at, n.updated_at";

/**
 * The contract's filters as the obvious SQL: the user's notes, with a tag,
 * where every term occurs in the title or the text (ILIKE, wildcards escaped).
 */
export function naiveFilter(userId: string, filters: { terms?: string[]; tagId?: string }): { clause: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const where = ["n.user_id = $1"];
  if (filters.tagId) {
    params.push(filters.tagId);
    where.push(`EXISTS (SELECT 1 FROM note_tags nt WHERE nt.note_id = n.id AND nt.tag_id = $${params.length})`);
  }
  for (const term of filters.terms ?? []) {
    params.push(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(n.title ILIKE $${params.length} OR n.content_text ILIKE $${params.length})`);
  }
  return { clause: where.join(" AND "), params };
}

function naiveList(filters: { terms?: string[]; tag?: boolean; offset?: number }) {
  return async (sql: Sql, user: LoadedUser) => {
    const { clause, params } = naiveFilter(user.userId, { terms: filters.terms, tagId: filters.tag ? user.tagIds[0] : undefined });
    await sql.query(`SELECT ${COLUMNS} FROM notes n WHERE ${clause} ORDER BY n.updated_at DESC, n.id DESC LIMIT 100 OFFSET ${filters.offset ?? 0}`, params);
    await sql.query(`SELECT count(*)::int AS total FROM notes n WHERE ${clause}`, params);
  };
}

const listPath = (query: Record<string, string>) => `/api/notes${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ""}`;

const NOTE_BODY = JSON.stringify({
  title: "Benchmark note",
  contentText: "A new note written during the benchmark, about a meeting and its budget. ".repeat(12),
});

export const SCENARIOS: Scenario[] = [
  {
    name: "list first page",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({})] }),
    naive: naiveList({}),
  },
  {
    name: "list offset 5000",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ offset: "5000" })] }),
    naive: naiveList({ offset: 5000 }),
  },
  {
    name: "search rare term",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ search: MARKERS.rare.word })] }),
    naive: naiveList({ terms: [MARKERS.rare.word] }),
  },
  {
    name: "search common term",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ search: MARKERS.common.word })] }),
    naive: naiveList({ terms: [MARKERS.common.word] }),
  },
  {
    name: "search rare term, ranked",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ search: MARKERS.rare.word, sort: "relevance" })] }),
    naive: naiveList({ terms: [MARKERS.rare.word] }),
  },
  {
    name: "search common term, ranked",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ search: MARKERS.common.word, sort: "relevance" })] }),
    naive: naiveList({ terms: [MARKERS.common.word] }),
  },
  {
    name: "search two terms",
    kind: "read",
    api: () => ({ method: "GET", paths: [listPath({ search: `${MARKERS.common.word} ${MARKERS.second.word}` })] }),
    naive: naiveList({ terms: [MARKERS.common.word, MARKERS.second.word] }),
  },
  {
    name: "tag filter",
    kind: "read",
    api: (user) => ({ method: "GET", paths: [listPath({ tagId: user.tagIds[0]! })] }),
    naive: naiveList({ tag: true }),
  },
  {
    name: "tag + search",
    kind: "read",
    api: (user) => ({ method: "GET", paths: [listPath({ tagId: user.tagIds[0]!, search: MARKERS.common.word })] }),
    naive: naiveList({ tag: true, terms: [MARKERS.common.word] }),
  },
  {
    name: "get one note",
    kind: "read",
    api: (user) => ({ method: "GET", paths: user.noteIds.slice(0, 50).map((id) => `/api/notes/${id}`) }),
    naive: async (sql, user, i) => {
      const id = user.noteIds[i % 50];
      await sql.query(`SELECT ${COLUMNS} FROM notes n WHERE n.id = $1 AND n.user_id = $2`, [id, user.userId]);
      await sql.query("SELECT t.id, t.name, t.created_at FROM note_tags nt JOIN tags t ON t.id = nt.tag_id WHERE nt.note_id = $1 ORDER BY t.name", [id]);
    },
  },
  {
    name: "create",
    kind: "write",
    api: () => ({ method: "POST", paths: ["/api/notes"], body: NOTE_BODY }),
    naive: async (sql, user) => {
      const { title, contentText } = JSON.parse(NOTE_BODY) as { title: string; contentText: string };
      await sql.query("INSERT INTO notes (user_id, title, content_text, created_at, updated_at) VALUES ($1, $2, $3, now(), now())", [user.userId, title, contentText]);
    },
  },
  {
    name: "patch",
    kind: "write",
    // Spread over many notes so connections do not queue on one row's lock.
    api: (user) => ({ method: "PATCH", paths: user.noteIds.slice(50, 150).map((id) => `/api/notes/${id}`), body: JSON.stringify({ title: "Patched during the benchmark" }) }),
    naive: async (sql, user, i) => {
      await sql.query("UPDATE notes SET title = $1, updated_at = now(), version = version + 1 WHERE id = $2 AND user_id = $3", [
        "Patched during the benchmark",
        user.noteIds[50 + (i % 100)],
        user.userId,
      ]);
    },
  },
];
