import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "@/lib/db/config";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { waitFor } from "@/scripts/lib/processes";
import { expectUnavailable, whileTableLocked } from "@/tests/helpers/database-faults";
import { testEnv } from "@/tests/helpers/env";
import { startNotesStack, type NotesStack } from "@/tests/helpers/notes-app";
import { PGBOUNCER_BIN, type Pgbouncer } from "@/tests/helpers/pgbouncer";

// The app behind PgBouncer in transaction mode, as serverless PostgreSQL
// hosts run it: every transaction may land on another server connection, so
// nothing may rely on session state (named prepared statements, session SET,
// session advisory locks). The whole integration suite runs this way with
// TEST_PGBOUNCER=1; this file checks the key flows and the failure modes.
describe.skipIf(!testEnv.TEST_DATABASE_URL || !existsSync(PGBOUNCER_BIN))("through PgBouncer in transaction mode (postgres)", () => {
  let stack: NotesStack;
  let bouncer: Pgbouncer;
  beforeAll(async () => {
    stack = await startNotesStack("postgres", { pgbouncer: true, users: 5 });
    bouncer = stack.pgbouncer!;
  });
  afterAll(() => stack?.stop());

  it("migrations of a pooled DATABASE_URL run over the direct connection, and leave no lock behind", async () => {
    const adminUrl = new URL(testEnv.TEST_DATABASE_URL!);
    const name = `notes_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const direct = new URL(adminUrl);
      direct.pathname = `/${name}`;
      const target = parseDatabaseUrl(bouncer.appUrl(direct.toString()));
      await expect(migrateDatabaseTarget(target, { directUrl: "" })).rejects.toThrow(/DIRECT_DATABASE_URL/);
      const first = await migrateDatabaseTarget(target, { directUrl: direct.toString() });
      expect(first.applied.length).toBeGreaterThan(0);
      const second = await migrateDatabaseTarget(target, { directUrl: direct.toString() });
      expect(second.applied).toEqual([]);
      // The migration lock is a session advisory lock: none may be left held on a server connection the pooler keeps.
      // (A closed session's locks go a moment after its client hung up, hence the wait.)
      const advisoryLocks = async () =>
        (await admin.query("SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = $1", [name])).rows[0].n;
      await waitFor(async () => (await advisoryLocks()) === 0, { timeoutMs: 10_000, intervalMs: 100, message: "the migration's advisory lock to go" });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("tagged writes, search, ETags, Idempotency-Key, tag deletes and MCP work, concurrently, with no errors", { timeout: 120_000 }, async () => {
    const user = stack.freshUser();
    const token = user.token();
    const tags: string[] = [];
    for (const name of ["alpha", "beta", "gamma"]) tags.push((await stack.api("/api/tags", { method: "POST", token, json: { name } })).body.tag.id);
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; i < 10; i += 1) {
          const res = await stack.api("/api/notes", {
            method: "POST",
            token,
            json: { title: `pooled ${client} ${i}`, contentMarkdown: `# Pooled\n\n- word${i}`, tagIds: [tags[i % 3], tags[(client + 1) % 3]] },
          });
          statuses.push(res.status);
          if (res.status !== 201) continue;
          const etag = res.headers.get("etag")!;
          statuses.push((await stack.api(`/api/notes/${res.body.note.id}`, { method: "PATCH", token, json: { title: "patched" }, headers: { "if-match": etag } })).status);
          statuses.push((await stack.api(`/api/notes?search=word${i}&tagId=${tags[i % 3]}`, { token })).status);
        }
      }),
    );
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    expect((await stack.api("/api/notes?limit=1", { token })).body.total).toBe(60);

    const key = randomUUID();
    const created = await Promise.all(
      [0, 1, 2].map(() => stack.api("/api/notes", { method: "POST", token, json: { title: "once" }, headers: { "idempotency-key": key } })),
    );
    expect(new Set(created.map((res) => res.body.note.id)).size).toBe(1);

    expect((await stack.api(`/api/tags/${tags[0]}`, { method: "DELETE", token })).status).toBe(204);
    expect((await stack.api(`/api/notes?tagId=${tags[0]}`, { token })).body.total).toBe(0);

    const mcp = await stack.api("/api/mcp", {
      method: "POST",
      token,
      headers: { accept: "application/json, text/event-stream" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_notes", arguments: { search: "once" } } },
    });
    expect(mcp.body.result.structuredContent.total).toBe(1);
  });

  it("the time bounds hold per transaction: a held table lock answers 503 + Retry-After", async () => {
    const user = stack.freshUser();
    await whileTableLocked(stack.database.url, "notes", async () => {
      const answers = await Promise.all([
        stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "during the lock" } }),
        stack.api("/api/notes", { token: user.token() }),
      ]);
      for (const res of answers) expectUnavailable(res);
    });
    expect((await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "after" } })).status).toBe(201);
  });

  it("a paused pooler: 503 + Retry-After while paused, then recovery, never a 500", async () => {
    const user = stack.freshUser();
    const token = user.token();
    expect((await stack.api("/api/notes", { method: "POST", token, json: { title: "before" } })).status).toBe(201);
    await bouncer.admin("PAUSE");
    let paused: Awaited<ReturnType<NotesStack["api"]>>[];
    try {
      paused = await Promise.all([
        stack.api("/api/notes", { token }),
        stack.api("/api/notes", { method: "POST", token, json: { title: "while paused" } }),
      ]);
    } finally {
      await bouncer.admin("RESUME");
    }
    for (const res of paused) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
    }
    for (let i = 0; i < 5; i += 1) expect((await stack.api("/api/notes", { method: "POST", token, json: { title: `after ${i}` } })).status).toBe(201);
  });
});
