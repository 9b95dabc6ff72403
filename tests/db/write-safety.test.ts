import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, Prisma, queryRows, type Db, type DbHandle } from "@/lib/db/client";
import { databaseLimits } from "@/lib/db/limits";
import { inAccountQueue } from "@/lib/db/account-writes";
import { writeTransaction } from "@/lib/db/transaction";
import { toErrorResponse } from "@/lib/errors";
import { createNote, deleteNote, updateNote } from "@/lib/notes/mutations";
import { createTag, deleteTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { testEnv } from "@/tests/helpers/env";
import { createTestDatabase, DEFAULT_DATABASE_SETTINGS, type TestDatabase } from "@/tests/helpers/test-db";

// Races between one account's writers, through the data layer on a real
// PostgreSQL with a pool as wide as the app's: every one must end as if the
// requests had come one after the other, never as an error.
describe.skipIf(!testEnv.TEST_DATABASE_URL)("write safety on PostgreSQL", () => {
  let database: TestDatabase;
  let handle: DbHandle;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    handle = await createDb({ kind: "postgres", url: database.url }, { poolMax: 10 });
    db = handle.db;
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** Runs `workers` loops of `perClient` operations each, collecting every failure as its HTTP status. */
  async function clients(workers: number, perClient: number, op: (worker: number, i: number) => Promise<unknown>) {
    const failures: { status: number; message: string }[] = [];
    await Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        for (let i = 0; i < perClient; i += 1) {
          try {
            await op(worker, i);
          } catch (err) {
            const response = toErrorResponse(err);
            failures.push({ status: response.status, message: err instanceof Error ? err.message.slice(0, 300) : String(err) });
          }
        }
      }),
    );
    return failures;
  }

  async function counters(userId: string) {
    const [row] = await db.$queryRaw<{ stored: number; actual: number; tags_wrong: number }[]>`
      SELECT u.note_count AS stored,
             (SELECT count(*)::int FROM notes n WHERE n.user_id = u.id) AS actual,
             (SELECT count(*)::int FROM tags t WHERE t.user_id = u.id
                AND t.note_count <> (SELECT count(*) FROM note_tags nt WHERE nt.tag_id = t.id)) AS tags_wrong
      FROM users u WHERE u.id = ${userId}::uuid`;
    if (!row) throw new Error("no such user");
    return row;
  }

  it("tagged creates, retags and deletes from 10 clients of one account: no errors, counters exact", async () => {
    const user = await createUser(db, { email: "writers@example.com" });
    const tags = await Promise.all(["a", "b", "c", "d", "e"].map((name) => createTag(db, { userId: user.id, input: { name } })));
    const ids = tags.map((tag) => tag.id);
    const pick = (n: number) => ids[n % ids.length]!;
    // Each client writes notes with overlapping tag sets in different orders,
    // retags an older note and deletes every third one.
    const failures = await clients(10, 12, async (worker, i) => {
      const tagIds = [pick(worker + i), pick(worker + 2 * i + 1), pick(i + 3)];
      const { note } = await createNote(db, { userId: user.id, input: { title: `w${worker} n${i}`, contentText: `shared words ${i % 7}`, tagIds } });
      await updateNote(db, { id: note.id, userId: user.id, input: { tagIds: [...tagIds].reverse().slice(0, 2), title: `w${worker} n${i}!` } });
      if (i % 3 === 0) await deleteNote(db, { id: note.id, userId: user.id });
    });
    expect(failures).toEqual([]);
    const after = await counters(user.id);
    expect(after.stored).toBe(after.actual);
    expect(after.actual).toBe(10 * 8);
    expect(after.tags_wrong).toBe(0);
  }, 120_000);

  it("deleting a tag while notes are created and retagged with it: no errors, the tag is simply not attached", async () => {
    const user = await createUser(db, { email: "tag-race@example.com" });
    let attachedAfterDelete = 0;
    for (let round = 0; round < 30; round += 1) {
      const keep = await createTag(db, { userId: user.id, input: { name: `keep ${round}` } });
      const doomed = await createTag(db, { userId: user.id, input: { name: `doomed ${round}` } });
      const existing = await createNote(db, { userId: user.id, input: { title: `existing ${round}`, tagIds: [keep.id] } });
      const results = await Promise.allSettled([
        createNote(db, { userId: user.id, input: { title: `new ${round}`, tagIds: [doomed.id, keep.id] } }),
        updateNote(db, { id: existing.note.id, userId: user.id, input: { tagIds: [keep.id, doomed.id] } }),
        deleteTag(db, { id: doomed.id, userId: user.id }),
      ]);
      for (const result of results) if (result.status === "rejected") throw result.reason;
      const links = await db.noteTag.count({ where: { tagId: doomed.id } });
      attachedAfterDelete += links;
      const kept = await db.noteTag.count({ where: { tagId: keep.id } });
      expect(kept).toBe(2);
    }
    expect(attachedAfterDelete).toBe(0);
    const after = await counters(user.id);
    expect(after.stored).toBe(after.actual);
    expect(after.tags_wrong).toBe(0);
  });

  it("deleting a note while it is updated: 404 or the update lands first, never a 500", async () => {
    const user = await createUser(db, { email: "delete-race@example.com" });
    const tag = await createTag(db, { userId: user.id, input: { name: "t" } });
    const statuses: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      const { note } = await createNote(db, { userId: user.id, input: { title: "x", tagIds: [tag.id] } });
      const results = await Promise.allSettled([
        updateNote(db, { id: note.id, userId: user.id, input: { title: "y", tagIds: [] } }),
        deleteNote(db, { id: note.id, userId: user.id }),
      ]);
      for (const result of results) statuses.push(result.status === "fulfilled" ? 200 : toErrorResponse(result.reason).status);
    }
    expect(statuses.filter((status) => status !== 200 && status !== 404)).toEqual([]);
    const after = await counters(user.id);
    expect(after.stored).toBe(after.actual);
    expect(after.tags_wrong).toBe(0);
  });

  it("a held table lock: writes and reads give up within the lock bound, as 503 with Retry-After", async () => {
    const user = await createUser(db, { email: "locked@example.com" });
    const limits = databaseLimits({ ...DEFAULT_DATABASE_SETTINGS, DATABASE_LOCK_TIMEOUT_MS: 300, DATABASE_STATEMENT_TIMEOUT_MS: 600 });
    const bounded = await createDb({ kind: "postgres", url: database.url }, { poolMax: 2, limits });
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE notes IN ACCESS EXCLUSIVE MODE");
      for (const attempt of [
        () => createNote(bounded.db, { userId: user.id, input: { title: "blocked" } }),
        () => bounded.db.note.count({ where: { userId: user.id } }),
      ]) {
        const response = toErrorResponse(await attempt().then(() => new Error("no error"), (err: unknown) => err));
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(await response.json()).toEqual({ error: "Service temporarily unavailable — retry shortly", requestId: expect.any(String) });
      }
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
      await bounded.close();
    }
    // And nothing of the given-up write was left behind.
    expect(await db.note.count({ where: { userId: user.id } })).toBe(0);
  });

  it("the account's write lock waits up to its own bound, and the rest of the transaction is back under the lock bound", async () => {
    const user = await createUser(db, { email: "account-lock@example.com" });
    const limits = databaseLimits({ ...DEFAULT_DATABASE_SETTINGS, DATABASE_LOCK_TIMEOUT_MS: 300, DATABASE_STATEMENT_TIMEOUT_MS: 5000 });
    expect(limits.accountLockTimeoutMs).toBe(5000);
    const bounded = await createDb({ kind: "postgres", url: database.url }, { poolMax: 2, limits });
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", [user.id]);
      const written = writeTransaction(bounded.db, (tx) => queryRows<{ lock_timeout: string }>(tx, Prisma.sql`SELECT current_setting('lock_timeout') AS lock_timeout`), { lockUserId: user.id });
      // Held until the transaction is seen waiting on it, past the 300 ms lock bound.
      await expect.poll(async () => (await holder.query("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype IN ('tuple', 'transactionid')")).rows[0].n, { timeout: 10_000 }).toBeGreaterThan(0);
      const waitingSince = (await holder.query("SELECT now() AS at")).rows[0].at as Date;
      await expect.poll(async () => (await holder.query("SELECT clock_timestamp() - $1::timestamptz > interval '400 ms' AS past", [waitingSince])).rows[0].past, { timeout: 10_000 }).toBe(true);
      await holder.query("COMMIT");
      expect(await written).toEqual([{ lock_timeout: "300ms" }]);
    } finally {
      await holder.end();
      await bounded.close();
    }
  });

  it("one account's writes take turns in the process, conversion included: one that waits past its bound is a 503 with Retry-After and writes nothing", async () => {
    const user = await createUser(db, { email: "account-turns@example.com" });
    const neighbour = await createUser(db, { email: "account-turns-neighbour@example.com" });
    const limits = databaseLimits({ ...DEFAULT_DATABASE_SETTINGS, DATABASE_LOCK_TIMEOUT_MS: 300, DATABASE_TRANSACTION_TIMEOUT_MS: 600, CONVERSION_QUEUE_TIMEOUT_MS: 300 });
    expect(limits.accountQueueTimeoutMs).toBe(300);
    const bounded = await createDb({ kind: "postgres", url: database.url }, { poolMax: 2, limits });
    let release!: () => void;
    const held = inAccountQueue(user.id, 60_000, () => new Promise<void>((resolve) => (release = resolve)));
    try {
      const refused = await createNote(bounded.db, { userId: user.id, input: { title: "Waited", contentMarkdown: "# Too long in line" } }).catch((err: unknown) => err);
      const response = toErrorResponse(refused);
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect((await response.json()).error).toBe("This account's earlier writes are still in progress — retry shortly");
      // Another account's write does not wait on this one's.
      await createNote(bounded.db, { userId: neighbour.id, input: { title: "Next door", contentMarkdown: "Written meanwhile" } });
    } finally {
      release();
      await held;
    }
    const written = await createNote(bounded.db, { userId: user.id, input: { title: "In turn", contentMarkdown: "Written once the turn came" } });
    await bounded.close();
    expect(await db.note.findMany({ where: { userId: user.id }, select: { title: true } })).toEqual([{ title: written.note.title }]);
  });

  it("every connection carries the configured time bounds", async () => {
    const rows = await db.$queryRaw<{ name: string; setting: string }[]>`
      SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout') ORDER BY name`;
    expect(Object.fromEntries(rows.map((row) => [row.name, Number(row.setting)]))).toEqual({
      idle_in_transaction_session_timeout: 10_000,
      lock_timeout: 2000,
      statement_timeout: 5000,
    });
  });
});
