import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { followChanges } from "@/lib/changes/queries";
import type { Db } from "@/lib/db/client";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { createUser, eraseUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { appErrorOf, useTestDatabase } from "@/tests/helpers/test-db";

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(TEST_DB_KINDS)("the change feed in the database (%s)", (kind) => {
  const database = useTestDatabase(kind);

  const newUser = (db: Db) => createUser(db, { email: `${randomUUID()}@example.com` });
  const feed = (db: Db, userId: string, since?: string) => followChanges(db, { userId, since, limit: 500, wait: 0 });
  const actions = async (db: Db, userId: string, since = "0") =>
    (await feed(db, userId, since)).changes.map((change) => [change.entity, change.action, change.id, change.version ?? null]);

  it("plain SQL writes land in the feed like the app's, numbered without gaps", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const id = randomUUID();
      await db.$executeRaw`INSERT INTO notes (id, user_id, title, content, content_text) VALUES (${id}::uuid, ${user.id}::uuid, 'By SQL', '[]'::jsonb, 'typed by an operator')`;
      await db.$executeRaw`UPDATE notes SET title = 'By SQL, again', version = version + 1 WHERE id = ${id}::uuid`;
      // A Markdown rendering stored later is no change (no new version).
      await db.$executeRaw`UPDATE notes SET content_markdown = 'rendered' WHERE id = ${id}::uuid`;
      await db.$executeRaw`DELETE FROM notes WHERE id = ${id}::uuid`;
      expect(await actions(db, user.id)).toEqual([
        ["note", "created", id, 1],
        ["note", "updated", id, 2],
        ["note", "purged", id, null],
      ]);
      const numbers = await db.$queryRaw<{ seq: bigint }[]>`SELECT seq FROM changes WHERE user_id = ${user.id}::uuid ORDER BY seq`;
      expect(numbers.map((row) => Number(row.seq))).toEqual([1, 2, 3]);
    });
  });

  it("a rolled-back write takes its number back: the next change follows with no gap", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const { note } = await createNote(db, { userId: user.id, input: { title: "Kept", contentText: "one" } });
      const failing = db.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE notes SET title = 'Never', version = version + 1 WHERE id = ${note.id}::uuid`;
        throw new Error("rolled back");
      });
      await expect(failing).rejects.toThrow("rolled back");
      await updateNote(db, { id: note.id, userId: user.id, input: { title: "Kept, renamed" } });
      const numbers = await db.$queryRaw<{ seq: bigint; version: number }[]>`SELECT seq, version FROM changes WHERE user_id = ${user.id}::uuid ORDER BY seq`;
      expect(numbers.map((row) => [Number(row.seq), row.version])).toEqual([
        [1, 1],
        [2, 2],
      ]);
    });
  });

  it("changes past CHANGES_RETENTION_DAYS are deleted by the next read, and a cursor before them is 410", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      for (let i = 0; i < 3; i += 1) await createNote(db, { userId: user.id, input: { title: `Note ${i}`, contentText: "x" } });
      await db.$executeRaw`UPDATE changes SET created_at = ${new Date(Date.now() - 31 * DAY_MS)} WHERE user_id = ${user.id}::uuid AND seq <= 2`;
      expect(await appErrorOf(feed(db, user.id, "0"))).toEqual({ status: 410, error: expect.stringContaining("older than the changes kept") });
      expect(await db.change.count({ where: { userId: user.id } })).toBe(1);
      // From a cursor at or after the last deleted change, nothing was missed.
      expect((await feed(db, user.id, "2")).changes).toHaveLength(1);
      expect((await feed(db, user.id, "3")).changes).toHaveLength(0);
      expect(await appErrorOf(feed(db, user.id, "4"))).toEqual({ status: 400, error: "Invalid query parameters" });
    });
  });

  it("erasing an account removes its feed; another account's feed is untouched", async () => {
    await database.withDb(async (db) => {
      const [gone, stays] = [await newUser(db), await newUser(db)];
      await createNote(db, { userId: gone.id, input: { title: "Gone", contentText: "x" } });
      await createNote(db, { userId: stays.id, input: { title: "Stays", contentText: "y" } });
      await eraseUser(db, { userId: gone.id });
      expect(await db.change.count({ where: { userId: gone.id } })).toBe(0);
      expect(await db.change.count({ where: { userId: stays.id } })).toBe(1);
    });
  });
});
