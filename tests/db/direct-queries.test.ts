import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDb, Prisma, queryRows, TransactionExpiredError, type Db } from "@/lib/db/client";
import { postgresCode } from "@/lib/errors/database";
import { databaseLimits } from "@/lib/db/limits";
import { toErrorResponse } from "@/lib/errors";
import { createNote } from "@/lib/notes/mutations";
import { getNoteJsonOrThrow, getNoteOrThrow, listNotes } from "@/lib/notes/queries";
import { NOTE_OMIT, NOTE_TAGS_INCLUDE, serializeNoteWithTags } from "@/lib/notes/serialize";
import { createTag, insertTag } from "@/lib/tags/mutations";
import { writeTransaction } from "@/lib/db/transaction";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { DEFAULT_DATABASE_SETTINGS, useTestDatabase } from "@/tests/helpers/test-db";

describe.each(TEST_DB_KINDS)("statements sent to the driver directly (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("reads one note exactly as the query builder's serializer writes it", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const [zeta, alpha] = [await createTag(db, { userId: user.id, input: { name: "zeta" } }), await createTag(db, { userId: user.id, input: { name: "Alpha" } })];
      const { note: created } = await createNote(db, {
        userId: user.id,
        input: { title: "Quarterly \"plan\" — ünïcode", content: [paragraphWithId("p1", "Line one\nand two")], contentText: "Line one\nand two", pinned: true, tagIds: [zeta.id, alpha.id] },
      });
      const found = await db.note.findFirst({ where: { id: created.id, userId: user.id }, include: NOTE_TAGS_INCLUDE, omit: NOTE_OMIT });
      const { note, version } = await getNoteOrThrow(db, { id: created.id, userId: user.id });
      expect(note).toEqual(serializeNoteWithTags(found!));
      expect(note.tags.map((tag) => tag.name)).toEqual(["Alpha", "zeta"]);
      expect(version).toBe(found!.version);
      // Another account's note is not found, by the same statement.
      const other = await createUser(db, { email: `${randomUUID()}@example.com` });
      await expect(getNoteJsonOrThrow(db, { id: created.id, userId: other.id })).rejects.toMatchObject({ status: 404 });
    });
  });

  it("runs inside a transaction when given one; on the client, never inside another's open transaction", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const count = (client: Parameters<typeof queryRows>[0]) =>
        queryRows<{ n: number }>(client, Prisma.sql`SELECT count(*)::int AS n FROM tags WHERE user_id = ${user.id}::uuid`);
      let outside: Promise<{ n: number }[]> | undefined;
      const rolledBack = new Error("roll back");
      const ended = await writeTransaction(db, async (tx) => {
        await insertTag(tx, { userId: user.id, input: { name: "inside" } });
        // The embedded database has one connection: this waits for the transaction to end.
        outside = count(db);
        expect(await count(tx)).toEqual([{ n: 1 }]);
        throw rolledBack;
      }).catch((err: unknown) => err);
      expect(ended).toBe(rolledBack);
      expect(await outside).toEqual([{ n: 0 }]);
      await writeTransaction(db, (tx) => insertTag(tx, { userId: user.id, input: { name: "kept" } }));
      expect(await count(db)).toEqual([{ n: 1 }]);
    });
  });

  it("gives up a write transaction past its bound: a 503, nothing of it committed, and its connection's next transaction works", async () => {
    const limits = databaseLimits({ ...DEFAULT_DATABASE_SETTINGS, DATABASE_TRANSACTION_TIMEOUT_MS: 1000 });
    // A client of its own, with its own bounds: the embedded database takes one client at a time.
    await database.release();
    const target = kind === "pglite" ? { kind, dataDir: database.url.slice("pglite:".length) } : { kind, url: database.url };
    const bounded = await createDb(target, { poolMax: 1, limits });
    try {
      const user = await createUser(bounded.db, { email: `${randomUUID()}@example.com` });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const given = writeTransaction(
        bounded.db,
        async (tx) => {
          await insertTag(tx, { userId: user.id, input: { name: "given up" } });
          await held;
          return queryRows(tx, Prisma.sql`SELECT 1 AS one`);
        },
        { lockUserId: user.id },
      );
      const failure = await given.then(() => new Error("committed"), (err: unknown) => err);
      expect(failure).toBeInstanceOf(TransactionExpiredError);
      const response = toErrorResponse(failure);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      // The given-up work goes on, and its next statement fails rather than running anywhere.
      release();
      await createTag(bounded.db, { userId: user.id, input: { name: "after" } });
      const names = await queryRows<{ name: string }>(bounded.db, Prisma.sql`SELECT name FROM tags WHERE user_id = ${user.id}::uuid`);
      expect(names).toEqual([{ name: "after" }]);
    } finally {
      await bounded.close();
    }
  });

  it("fails with the database's own error code", async () => {
    await database.withDb(async (db) => {
      const failure = await queryRows(db, Prisma.sql`SELECT ${"not a uuid"}::uuid`).catch((err: unknown) => err);
      expect(postgresCode(failure)).toBe("22P02");
    });
  });

  /** A client of one connection: a pool of one on PostgreSQL; the embedded database has only one. */
  async function withOneConnection(fn: (db: Db) => Promise<void>): Promise<void> {
    if (kind === "pglite") return database.withDb(fn);
    const handle = await createDb({ kind: "postgres", url: database.url }, { poolMax: 1 });
    try {
      await fn(handle.db);
    } finally {
      await handle.close();
    }
  }

  it("prepares each statement asked to be once, under a name of its own", async () => {
    await withOneConnection(async (db) => {
      const statement = (n: number) => Prisma.sql`SELECT ${n}::int AS n`;
      expect(await queryRows(db, statement(1), { prepare: true })).toEqual([{ n: 1 }]);
      expect(await queryRows(db, statement(2), { prepare: true })).toEqual([{ n: 2 }]);
      // Not asked to be prepared (its plan could depend on its values): sent unnamed.
      expect(await queryRows(db, Prisma.sql`SELECT ${3}::int AS m`)).toEqual([{ m: 3 }]);
      const prepared = await queryRows<{ name: string; statement: string }>(db, Prisma.sql`SELECT name, statement FROM pg_prepared_statements ORDER BY name`);
      // PostgreSQL shows the statement; the embedded database, the PREPARE that made it.
      expect(prepared.map((row) => row.statement.replace(/^PREPARE \w+ AS /, ""))).toEqual(["SELECT $1::int AS n"]);
      expect(prepared[0]!.name).toMatch(/^notes_\d+$/);
    });
  });

  it("gives a statement prepared after one that failed to prepare a name of its own", async () => {
    await withOneConnection(async (db) => {
      // Both start preparing before either ends; the first fails (no such column), the second is kept.
      const [failed, kept] = await Promise.allSettled([
        queryRows(db, Prisma.sql`SELECT no_such_column FROM notes WHERE id = ${randomUUID()}::uuid`, { prepare: true }),
        queryRows(db, Prisma.sql`SELECT ${1}::int AS kept`, { prepare: true }),
      ]);
      expect(postgresCode(failed.status === "rejected" ? failed.reason : null)).toBe("42703");
      expect(kept).toEqual({ status: "fulfilled", value: [{ kept: 1 }] });
      expect(await queryRows(db, Prisma.sql`SELECT ${2}::int AS next`, { prepare: true })).toEqual([{ next: 2 }]);
      expect(await queryRows(db, Prisma.sql`SELECT ${3}::int AS kept`, { prepare: true })).toEqual([{ kept: 3 }]);
    });
  });

  it("prepares a plain list page, not a tag's or a search's, and pages the same on every run", async () => {
    await withOneConnection(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const tag = await createTag(db, { userId: user.id, input: { name: "work" } });
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const { note } = await createNote(db, { userId: user.id, input: { title: `Note ${i}`, content: [], contentText: `body ${i}`, pinned: i === 3, tagIds: i % 2 ? [tag.id] : [] } });
        ids.push(note.id);
      }
      // Most recently updated first: the order the notes were written, reversed.
      const newestFirst = [...ids].reverse();
      // Past the fifth run PostgreSQL may plan a prepared statement generically: every run must still page the same.
      for (let run = 0; run < 8; run += 1) {
        for (const offset of [0, 2, 5]) {
          const page = await listNotes(db, { userId: user.id, limit: 2, offset });
          expect(page.notes.map((note) => note.id)).toEqual(newestFirst.slice(offset, offset + 2));
          expect(page.total).toBe(7);
        }
        const pinned = await listNotes(db, { userId: user.id, pinned: true, limit: 5, offset: 0 });
        expect(pinned.notes.map((note) => note.id)).toEqual([ids[3]]);
        expect(pinned.total).toBe(1);
      }
      // The total rides on the page's statement; a page past the end still has it.
      for (const [filters, total] of [[{}, 7], [{ pinned: false }, 6], [{ pinned: true }, 1], [{ tagId: tag.id }, 3]] as const) {
        expect((await listNotes(db, { userId: user.id, ...filters, limit: 2, offset: 0 })).total).toBe(total);
        expect(await listNotes(db, { userId: user.id, ...filters, limit: 2, offset: 10 })).toMatchObject({ notes: [], total });
      }
      const first = await listNotes(db, { userId: user.id, limit: 3, offset: 0 });
      const next = await listNotes(db, { userId: user.id, limit: 3, offset: 0, cursor: { updatedAt: first.notes[2]!.updatedAt, id: first.notes[2]!.id } });
      expect(next.notes.map((note) => note.id)).toEqual(newestFirst.slice(3, 6));
      await listNotes(db, { userId: user.id, tagId: tag.id, limit: 2, offset: 0 });
      await listNotes(db, { userId: user.id, search: "body", limit: 2, offset: 0 });

      const prepared = await queryRows<{ statement: string }>(db, Prisma.sql`SELECT statement FROM pg_prepared_statements`);
      const pages = prepared.map((row) => row.statement).filter((statement) => statement.includes("WITH fetched"));
      // The plain page, the pinned and the unpinned pages and the cursor's page; none filtered by a tag or a search.
      expect(pages).toHaveLength(4);
      expect(pages.some((statement) => statement.includes("note_tags nt WHERE nt.note_id = n.id AND nt.tag_id"))).toBe(false);
      expect(pages.some((statement) => statement.includes("search_fold"))).toBe(false);
    });
  });

  it("passes every kind of value through a prepared statement unchanged, quotes and backslashes included", async () => {
    await withOneConnection(async (db) => {
      const text = `o'brien \\ "x" ünï'); DROP TABLE notes; --`;
      const read = (values: { text: string; n: number; big: number; yes: boolean; none: string | null }) =>
        queryRows(
          db,
          Prisma.sql`SELECT ${values.text}::text AS text, ${values.n}::int AS n, ${values.big}::float8 AS big, ${values.yes}::boolean AS yes, ${values.none}::text AS none`,
          { prepare: true },
        );
      for (const values of [
        { text, n: -7, big: 1.5e300, yes: true, none: null },
        { text: "", n: 0, big: 0.1, yes: false, none: "'" },
      ]) {
        expect(await read(values)).toEqual([values]);
      }
      // A NUL cannot be written into the statement: the value goes as a parameter, refused as it always was.
      const nul = await read({ text: "a\0b", n: 1, big: 1, yes: true, none: null }).catch((err: unknown) => err);
      expect(postgresCode(nul)).toBe("22021");
      // The text stayed a value: nothing it spells out ran.
      expect(await queryRows(db, Prisma.sql`SELECT to_regclass('notes')::text AS t`)).toEqual([{ t: "notes" }]);
    });
  });
});
