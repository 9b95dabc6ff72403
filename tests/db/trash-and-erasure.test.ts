import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Prisma, type Db } from "@/lib/db/client";
import { writeTransaction } from "@/lib/db/transaction";
import { idempotent } from "@/lib/idempotency/idempotency";
import { createNote, deleteNote, insertNote } from "@/lib/notes/mutations";
import { getNoteOrThrow, listNotes } from "@/lib/notes/queries";
import { apiLimitKey, authAccountLimitKey } from "@/lib/rate-limit/keys";
import { consumeRateLimit } from "@/lib/rate-limit/limiter";
import { createTag } from "@/lib/tags/mutations";
import { purgeExpiredTrash } from "@/lib/notes/trash-move";
import { deleteTrashedNote, restoreTrashedNote } from "@/lib/trash/mutations";
import { listTrash } from "@/lib/trash/queries";
import { createUser, eraseUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { appErrorOf, useTestDatabase } from "@/tests/helpers/test-db";

const DAY_MS = 24 * 60 * 60 * 1000;
const page = { limit: 100, offset: 0 };

describe.each(TEST_DB_KINDS)("trash and account erasure in the data layer (%s)", (kind) => {
  const database = useTestDatabase(kind);

  const newUser = (db: Db) => createUser(db, { email: `${randomUUID()}@example.com` });

  it("expiry: a note past the retention period is purged by the next trash read, and can no longer be restored", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const { note } = await createNote(db, { userId: user.id, input: { title: "Expiring" } });
      await deleteNote(db, { id: note.id, userId: user.id });
      const later = (days: number) => new Date(Date.now() + days * DAY_MS);

      expect((await listTrash(db, { userId: user.id, ...page, now: later(29) })).total).toBe(1);
      expect(await appErrorOf(restoreTrashedNote(db, { id: note.id, userId: user.id, now: later(31) }))).toEqual({ status: 404, error: "Note not found in the trash" });
      // A shorter setting applies to what is already in the trash.
      expect((await listTrash(db, { userId: user.id, ...page, now: later(2), retentionDays: 3 })).total).toBe(1);
      expect(await listTrash(db, { userId: user.id, ...page, now: later(31) })).toEqual({ notes: [], total: 0 });
      expect(await db.trashedNote.count({ where: { id: note.id } })).toBe(0);
    });
  });

  it("expiry without any read of that account: every other account's deletes purge it", async () => {
    await database.withDb(async (db) => {
      const idle = await newUser(db);
      const { note } = await createNote(db, { userId: idle.id, input: { title: "Forgotten" } });
      await deleteNote(db, { id: note.id, userId: idle.id });
      expect(await purgeExpiredTrash(db, { now: new Date(Date.now() + 29 * DAY_MS) })).toBe(0);
      await db.trashedNote.update({ where: { id: note.id }, data: { deletedAt: new Date(Date.now() - 31 * DAY_MS) } });

      const busy = await newUser(db);
      const other = await createNote(db, { userId: busy.id, input: { title: "Busy" } });
      await deleteNote(db, { id: other.note.id, userId: busy.id });
      expect(await db.trashedNote.count({ where: { userId: idle.id } })).toBe(0);
      expect(await db.trashedNote.count({ where: { userId: busy.id } })).toBe(1);
    });
  });

  it("restore is a 409 while a note with that id exists, and the trashed copy stays", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const { note } = await createNote(db, { userId: user.id, input: { title: "Original", contentText: "first" } });
      await deleteNote(db, { id: note.id, userId: user.id });
      await writeTransaction(db, (tx) =>
        insertNote(tx, { userId: user.id, input: { title: "Squatter" }, keep: { id: note.id, version: 1, createdAt: new Date(), updatedAt: new Date() } }),
      );
      expect(await appErrorOf(restoreTrashedNote(db, { id: note.id, userId: user.id }))).toEqual({ status: 409, error: "A note with this id already exists" });
      expect((await listTrash(db, { userId: user.id, ...page })).total).toBe(1);

      await deleteTrashedNote(db, { id: note.id, userId: user.id });
      expect((await getNoteOrThrow(db, { id: note.id, userId: user.id })).note.title).toBe("Squatter");
      expect((await listNotes(db, { userId: user.id, ...page })).total).toBe(1);
    });
  });

  it("permanent delete and emptying leave no row of the note behind", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const tag = await createTag(db, { userId: user.id, input: { name: "t" } });
      const { note } = await createNote(db, { userId: user.id, input: { title: "Forever", tagIds: [tag.id] } });
      await deleteNote(db, { id: note.id, userId: user.id });
      await deleteTrashedNote(db, { id: note.id, userId: user.id });
      const rows = await db.$queryRaw<{ n: number }[]>`
        SELECT ((SELECT count(*) FROM notes WHERE id = ${note.id}::uuid) + (SELECT count(*) FROM trashed_notes WHERE id = ${note.id}::uuid)
          + (SELECT count(*) FROM note_tags WHERE note_id = ${note.id}::uuid))::int AS n`;
      expect(rows[0]!.n).toBe(0);
      expect((await db.tag.findUniqueOrThrow({ where: { id: tag.id } })).noteCount).toBe(0);
    });
  });

  it("erasing an account leaves no row in any table holding its unique word, email or id", async () => {
    await database.withDb(async (db) => {
      const word = `zqx${randomBytes(6).toString("hex")}`;
      const email = `${word}@example.com`;
      const user = await createUser(db, { email, password: `${word}-password` });
      const bystander = await createUser(db, { email: `bystander-${randomUUID()}@example.com` });

      const tag = await createTag(db, { userId: user.id, input: { name: `${word} tag` } });
      await createNote(db, { userId: user.id, input: { title: `${word} title`, contentMarkdown: `Body with ${word} in it`, tagIds: [tag.id] } });
      const trashed = await createNote(db, { userId: user.id, input: { title: `Trashed ${word}`, contentText: `${word} in the trash` } });
      await deleteNote(db, { id: trashed.note.id, userId: user.id });
      await idempotent(db, {
        userId: user.id,
        scope: "POST /api/notes",
        key: `key-${word}`,
        request: { title: `${word} idempotent` },
        perform: async (tx) => ({ status: 201, body: { note: (await insertNote(tx, { userId: user.id, input: { title: `${word} idempotent` } })).note } }),
      });
      await db.session.create({ data: { userId: user.id, token: `session-${word}`, expiresAt: new Date(Date.now() + DAY_MS), userAgent: word } });
      await db.verification.create({ data: { identifier: `reset-password:${word}`, value: user.id, expiresAt: new Date(Date.now() + DAY_MS) } });
      for (const key of [apiLimitKey(user.id), authAccountLimitKey("signIn", email), authAccountLimitKey("passwordReset", email)]) {
        await consumeRateLimit(db, key, { limit: 10, windowSeconds: 60 });
      }
      // The bystander's data, which must all stay.
      await createNote(db, { userId: bystander.id, input: { title: "Not theirs" } });
      await consumeRateLimit(db, apiLimitKey(bystander.id), { limit: 10, windowSeconds: 60 });

      const tables = (
        await db.$queryRaw<{ table_name: string }[]>`
          SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
      ).map((row) => row.table_name);
      expect(tables).toEqual(expect.arrayContaining(["notes", "trashed_notes", "note_revisions", "tags", "note_tags", "sessions", "accounts", "idempotency_keys", "rate_limits", "verifications"]));
      /** The tables with a row whose text (all its columns, cast as one row) contains any of the needles. */
      const tablesHolding = async (needles: string[]) => {
        const found: string[] = [];
        for (const table of tables) {
          const conditions = needles.map((needle) => Prisma.sql`strpos(lower(r::text), ${needle.toLowerCase()}) > 0`);
          const [row] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ${Prisma.raw(`"${table}"`)} r WHERE ${Prisma.join(conditions, " OR ")}`;
          if (row!.n > 0) found.push(table);
        }
        return found;
      };
      // The rate-limit keys hold no email: they are found by their hashed keys.
      const rateLimitKeys = async () => (await db.rateLimit.findMany({ select: { key: true } })).map((row) => row.key);
      expect(await tablesHolding([word])).toEqual(
        expect.arrayContaining(["idempotency_keys", "notes", "search_vocabulary", "sessions", "tags", "trashed_notes", "users", "verifications"]),
      );
      expect(await tablesHolding([user.id])).toEqual(expect.arrayContaining(["accounts", "notes", "rate_limits", "sessions", "tags", "trashed_notes", "users", "verifications"]));
      expect(await rateLimitKeys()).toEqual(expect.arrayContaining([authAccountLimitKey("signIn", email)]));

      expect(await eraseUser(db, { userId: user.id })).toEqual({ id: user.id, email });

      expect(await tablesHolding([word, user.id])).toEqual([]);
      const keysLeft = await rateLimitKeys();
      for (const operation of ["signIn", "signUp", "passwordReset", "verificationMail"]) expect(keysLeft).not.toContain(authAccountLimitKey(operation, email));
      expect(keysLeft).toContain(apiLimitKey(bystander.id));
      expect((await listNotes(db, { userId: bystander.id, ...page })).total).toBe(1);
      expect(await eraseUser(db, { userId: user.id })).toBeNull();
    });
  });
});
