import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, deleteNote } from "@/lib/notes/mutations";
import { getNoteOrThrow, listNotes } from "@/lib/notes/queries";
import { createTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { appErrorOf, useTestDatabase } from "@/tests/helpers/test-db";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

// A new note exists from its first save: the browser makes its id, and the
// save that creates it may come twice (its answer lost on the way).
describe.each(TEST_DB_KINDS)("a note created by its first save, with the browser's id (%s)", (kind) => {
  const database = useTestDatabase(kind);
  const newUser = (db: Db) => createUser(db, { email: `${randomUUID()}@example.com` });

  it("is created with that id; the same save again is the same note, not a second one", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const tag = await createTag(db, { userId: user.id, input: { name: "trip" } });
      const id = randomUUID();
      const input = { title: "Lisbon", content: [paragraph("Alfama")], contentText: "Alfama", tagIds: [tag.id], pinned: true };
      const first = await createNote(db, { userId: user.id, id, input });
      expect(first).toMatchObject({ version: 1, note: { id, title: "Lisbon", contentText: "Alfama", pinned: true, tags: [{ id: tag.id }] } });

      const again = await createNote(db, { userId: user.id, id, input });
      expect(again).toEqual(first);
      expect((await listNotes(db, { userId: user.id, limit: 10, offset: 0 })).total).toBe(1);
      expect((await getNoteOrThrow(db, { id, userId: user.id })).version).toBe(1);
    });
  });

  it("another body with the same id of this account is 412 with the note as it is; nothing is written", async () => {
    await database.withDb(async (db) => {
      const user = await newUser(db);
      const id = randomUUID();
      await createNote(db, { userId: user.id, id, input: { title: "Lisbon", content: [paragraph("Alfama")], contentText: "Alfama" } });
      const conflict = createNote(db, { userId: user.id, id, input: { title: "Lisbon", content: [paragraph("Belém")], contentText: "Belém" } });
      expect(await appErrorOf(conflict)).toMatchObject({ status: 412, error: "Note was modified" });
      expect((await getNoteOrThrow(db, { id, userId: user.id })).note.contentText).toBe("Alfama");
    });
  });

  it("an id another account holds, or a note in the trash, is refused without saying whose", async () => {
    await database.withDb(async (db) => {
      const [owner, other] = [await newUser(db), await newUser(db)];
      const id = randomUUID();
      await createNote(db, { userId: owner.id, id, input: { title: "Private", content: [paragraph("secret")], contentText: "secret" } });
      expect(await appErrorOf(createNote(db, { userId: other.id, id, input: { title: "Mine" } }))).toEqual({ status: 409, error: "A note with this id already exists" });
      expect((await listNotes(db, { userId: other.id, limit: 10, offset: 0 })).total).toBe(0);

      await deleteNote(db, { id, userId: owner.id });
      expect(await appErrorOf(createNote(db, { userId: owner.id, id, input: { title: "Again" } }))).toEqual({ status: 409, error: "A note with this id already exists" });
      expect(await appErrorOf(createNote(db, { userId: other.id, id, input: { title: "Again" } }))).toEqual({ status: 409, error: "A note with this id already exists" });
    });
  });
});
