import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { expectUnavailable, UNAVAILABLE, whileTableLocked } from "@/tests/helpers/database-faults";
import { testEnv } from "@/tests/helpers/env";
import { startNotesStack, type NotesStack, type SeededUser } from "@/tests/helpers/notes-app";

// What an agent sees when the database is slow, locked or restarting: time
// bounds that end waits as 503 + Retry-After, never a 500 and never a stall.
// PostgreSQL only: PGlite has one connection in-process, so there is no other
// session to hold a lock or to be terminated.
describe.skipIf(!testEnv.TEST_DATABASE_URL)("database faults through the API (postgres)", () => {
  let stack: NotesStack;
  let admin: pg.Client;
  beforeAll(async () => {
    // The default bounds (lib/env.ts): a held lock is given up after 2 s.
    stack = await startNotesStack("postgres");
    admin = new pg.Client({ connectionString: stack.database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await stack?.stop();
  });

  const createTag = async (user: SeededUser, name: string) => {
    const res = await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name } });
    expect(res.status).toBe(201);
    return res.body.tag.id as string;
  };

  it("tagged writes from 8 clients of one account: every request succeeds, the counts agree", { timeout: 120_000 }, async () => {
    const user = stack.freshUser();
    const tags = await Promise.all(["red", "green", "blue", "amber"].map((name) => createTag(user, name)));
    const statuses: number[] = [];
    let created = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        for (let i = 0; i < 15; i += 1) {
          const tagIds = [tags[(client + i) % 4], tags[(client + 3 * i + 1) % 4]];
          const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: `c${client} ${i}`, tagIds } });
          statuses.push(res.status);
          if (res.status !== 201) continue;
          created += 1;
          const patched = await stack.api(`/api/notes/${res.body.note.id}`, { method: "PATCH", token: user.token(), json: { tagIds: [...tagIds].reverse() } });
          statuses.push(patched.status);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
    const list = await stack.api("/api/notes?limit=1", { token: user.token() });
    expect(list.body.total).toBe(created);
    for (const tagId of tags) {
      const byTag = await stack.api(`/api/notes?tagId=${tagId}&limit=500`, { token: user.token() });
      expect(byTag.body.total).toBe(byTag.body.notes.length);
    }
  });

  it("deleting a tag while notes are created and retagged with it: no errors, never attached after the delete", async () => {
    const user = stack.freshUser();
    const statuses: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      const doomed = await createTag(user, `doomed ${round}`);
      const existing = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "existing" } });
      const [created, patched, deleted] = await Promise.all([
        stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: `new ${round}`, tagIds: [doomed] } }),
        stack.api(`/api/notes/${existing.body.note.id}`, { method: "PATCH", token: user.token(), json: { tagIds: [doomed] } }),
        stack.api(`/api/tags/${doomed}`, { method: "DELETE", token: user.token() }),
      ]);
      statuses.push(created.status, patched.status, deleted.status);
      const byTag = await stack.api(`/api/notes?tagId=${doomed}`, { token: user.token() });
      expect(byTag.body.total).toBe(0);
    }
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
  });

  it("a lock held on the notes table: every route gives up at its bound with 503 + Retry-After, MCP too", async () => {
    const user = stack.freshUser();
    const note = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "before the lock" } });
    // The lock is released only after these answered: a 503 here is the bound at work, not the lock going away.
    await whileTableLocked(stack.database.url, "notes", async () => {
      const answers = await Promise.all([
        stack.api("/api/notes", { token: user.token() }),
        stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "during the lock" } }),
        stack.api(`/api/notes/${note.body.note.id}`, { token: user.token() }),
        stack.api(`/api/notes/${note.body.note.id}`, { method: "PATCH", token: user.token(), json: { title: "x" } }),
        stack.api(`/api/notes/${note.body.note.id}`, { method: "DELETE", token: user.token() }),
      ]);
      for (const res of answers) expectUnavailable(res);
      const mcp = await stack.api("/api/mcp", {
        method: "POST",
        token: user.token(),
        headers: { accept: "application/json, text/event-stream" },
        json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_notes", arguments: {} } },
      });
      expect(mcp.status).toBe(200);
      expect(mcp.body.result.isError).toBe(true);
      expect(mcp.body.result.structuredContent).toMatchObject({ status: 503, error: UNAVAILABLE.error, retryAfter: 1 });
    });
    const after = await stack.api(`/api/notes/${note.body.note.id}`, { token: user.token() });
    expect(after.status).toBe(200);
    expect(after.body.note.title).toBe("before the lock");
  });

  it("the app's connections terminated under load: 503s while it happens, then recovery, never a 500", { timeout: 120_000 }, async () => {
    const user = stack.freshUser();
    const tag = await createTag(user, "load");
    const statuses = new Map<number, number>();
    let stop = false;
    const clients = Array.from({ length: 6 }, async (_, client) => {
      for (let i = 0; !stop; i += 1) {
        const res =
          i % 2 === 0
            ? await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: `load ${client} ${i}`, tagIds: [tag] } })
            : await stack.api("/api/notes?limit=5", { token: user.token() });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) expect([res.status, res.body, res.headers.get("retry-after")]).toEqual([503, UNAVAILABLE, "1"]);
      }
    });
    // Terminate every backend of the app's database, ten times over, as a restart would.
    let terminated = 0;
    for (let round = 0; round < 10; round += 1) {
      await waitFor(() => [...statuses.values()].reduce((a, b) => a + b, 0) > round * 10, {
        timeoutMs: 20_000,
        intervalMs: 20,
        message: () => `more answers under load (so far ${JSON.stringify(Object.fromEntries(statuses))})`,
      });
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      terminated += rows[0]!.n;
    }
    stop = true;
    await Promise.all(clients);
    console.log("[measure] backends terminated under load:", terminated, "answers by status:", Object.fromEntries(statuses));
    expect(terminated).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
    // Recovered: the next requests all succeed.
    for (let i = 0; i < 5; i += 1) {
      const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: `after ${i}`, tagIds: [tag] } });
      expect(res.status).toBe(201);
    }
    const total = (await stack.api("/api/notes?limit=1", { token: user.token() })).body.total;
    const byTag = (await stack.api(`/api/notes?tagId=${tag}&limit=1`, { token: user.token() })).body.total;
    expect(byTag).toBe(total);
  });
});
