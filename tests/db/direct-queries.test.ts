import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDb, Prisma, queryRows, type Db } from "@/lib/db/client";
import { postgresCode } from "@/lib/db/failures";
import { createNote } from "@/lib/notes/mutations";
import { getNoteJsonOrThrow, getNoteOrThrow } from "@/lib/notes/queries";
import { NOTE_OMIT, NOTE_TAGS_INCLUDE, serializeNoteWithTags } from "@/lib/notes/serialize";
import { createTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { useTestDatabase } from "@/tests/helpers/test-db";

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
      const ended = await db
        .$transaction(async (tx) => {
          await tx.tag.create({ data: { userId: user.id, name: "inside" } });
          // The embedded database has one connection: this waits for the transaction to end.
          outside = count(db);
          expect(await count(tx)).toEqual([{ n: 1 }]);
          throw rolledBack;
        })
        .catch((err: unknown) => err);
      expect(ended).toBe(rolledBack);
      expect(await outside).toEqual([{ n: 0 }]);
      await db.$transaction((tx) => tx.tag.create({ data: { userId: user.id, name: "kept" } }));
      expect(await count(db)).toEqual([{ n: 1 }]);
    });
  });

  it("fails with the database's own error code", async () => {
    await database.withDb(async (db) => {
      const failure = await queryRows(db, Prisma.sql`SELECT ${"not a uuid"}::uuid`).catch((err: unknown) => err);
      expect(postgresCode(failure)).toBe("22P02");
    });
  });

  if (kind === "postgres") {
    it("prepares each statement once per connection, under a name of its own", async () => {
      const handle = await createDb({ kind: "postgres", url: database.url }, { poolMax: 1 });
      try {
        const db: Db = handle.db;
        const statement = (n: number) => Prisma.sql`SELECT ${n}::int AS n`;
        expect(await queryRows(db, statement(1), { prepare: true })).toEqual([{ n: 1 }]);
        expect(await queryRows(db, statement(2), { prepare: true })).toEqual([{ n: 2 }]);
        // Not asked to be prepared (its plan could depend on its values): sent unnamed.
        expect(await queryRows(db, Prisma.sql`SELECT ${3}::int AS m`)).toEqual([{ m: 3 }]);
        const prepared = await queryRows<{ name: string; statement: string }>(db, Prisma.sql`SELECT name, statement FROM pg_prepared_statements ORDER BY name`);
        expect(prepared.map((row) => row.statement)).toEqual(["SELECT $1::int AS n"]);
        expect(prepared[0]!.name).toMatch(/^notes_\d+$/);
      } finally {
        await handle.close();
      }
    });
  }
});
