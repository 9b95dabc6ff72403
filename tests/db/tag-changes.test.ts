import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { followChanges } from "@/lib/changes/queries";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { noteEtag } from "@/lib/notes/etag";
import { createNote, deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { getNoteVersion } from "@/lib/notes/version";
import type { RevisionAuthor } from "@/lib/db/author";
import { createTag, deleteTag, renameTag } from "@/lib/tags/mutations";
import { createUser, eraseUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useTestDatabase } from "@/tests/helpers/test-db";

describe.each(TEST_DB_KINDS)("a tag's rename or deletion and its notes' versions (%s)", (kind) => {
  const database = useTestDatabase(kind);

  const setUp = async (db: Db) => {
    const user = await createUser(db, { email: `${randomUUID()}@example.com` });
    const person: RevisionAuthor = { kind: "browser", email: user.email };
    const [ideas, work] = [await createTag(db, { userId: user.id, input: { name: "ideas" } }), await createTag(db, { userId: user.id, input: { name: "work" } })];
    const both = (await createNote(db, { userId: user.id, author: person, input: { title: "Both", contentText: "one", tagIds: [ideas.id, work.id] } })).note;
    const workOnly = (await createNote(db, { userId: user.id, author: person, input: { title: "Work only", contentText: "two", tagIds: [work.id] } })).note;
    const untagged = (await createNote(db, { userId: user.id, author: person, input: { title: "Untagged", contentText: "three" } })).note;
    return { user, person, ideas, work, both, workOnly, untagged };
  };
  /** What a conditional GET compares If-None-Match with. */
  const etagOf = async (db: Db, id: string, userId: string) => noteEtag((await getNoteVersion(db, { id, userId }))!.version);
  const cursorOf = async (db: Db, userId: string) => (await followChanges(db, { userId, limit: 500, wait: 0 })).cursor;
  const changesSince = async (db: Db, userId: string, since: string) =>
    (await followChanges(db, { userId, since, limit: 500, wait: 0 })).changes.map((change) => [change.entity, change.action, change.id, change.version ?? null]);

  it("a rename gives each note carrying the tag a new version: its ETag changes and the feed lists it; other notes keep theirs", async () => {
    await database.withDb(async (db) => {
      const { user, ideas, work, both, workOnly, untagged } = await setUp(db);
      const before = await getNoteOrThrow(db, { id: both.id, userId: user.id });
      const [untaggedEtag, cursor] = [await etagOf(db, untagged.id, user.id), await cursorOf(db, user.id)];

      await renameTag(db, { id: ideas.id, userId: user.id, input: { name: "plans" } });

      const after = await getNoteOrThrow(db, { id: both.id, userId: user.id });
      expect(after.version).toBe(before.version + 1);
      expect(await etagOf(db, both.id, user.id)).toBe(noteEtag(before.version + 1));
      expect(after.note.tags.map((tag) => tag.name)).toEqual(["plans", "work"]);
      // Nobody edited the note: it keeps its place in lists.
      expect(after.note.updatedAt).toBe(before.note.updatedAt);
      expect(await etagOf(db, workOnly.id, user.id)).toBe(noteEtag(1));
      expect(await etagOf(db, untagged.id, user.id)).toBe(untaggedEtag);
      expect(await changesSince(db, user.id, cursor)).toEqual([
        ["tag", "updated", ideas.id, null],
        ["note", "updated", both.id, 2],
      ]);

      // The other tag, carried by two notes: both get a new version, in one transaction.
      const next = await cursorOf(db, user.id);
      await renameTag(db, { id: work.id, userId: user.id, input: { name: "job" } });
      expect(await etagOf(db, both.id, user.id)).toBe(noteEtag(3));
      expect(await etagOf(db, workOnly.id, user.id)).toBe(noteEtag(2));
      expect(await etagOf(db, untagged.id, user.id)).toBe(untaggedEtag);
      const changes = await changesSince(db, user.id, next);
      expect(changes[0]).toEqual(["tag", "updated", work.id, null]);
      expect(changes.slice(1).sort()).toEqual(
        [
          ["note", "updated", both.id, 3],
          ["note", "updated", workOnly.id, 2],
        ].sort(),
      );
    });
  });

  it("a rename that only changes the case changes the notes' ETags and is in the feed; renaming to the same name changes nothing", async () => {
    await database.withDb(async (db) => {
      const { user, ideas, both } = await setUp(db);
      const cursor = await cursorOf(db, user.id);
      await renameTag(db, { id: ideas.id, userId: user.id, input: { name: "ideas" } });
      expect(await changesSince(db, user.id, cursor)).toEqual([]);
      expect(await etagOf(db, both.id, user.id)).toBe(noteEtag(1));

      await renameTag(db, { id: ideas.id, userId: user.id, input: { name: "Ideas" } });
      expect(await etagOf(db, both.id, user.id)).toBe(noteEtag(2));
      expect((await getNoteOrThrow(db, { id: both.id, userId: user.id })).note.tags.map((tag) => tag.name)).toEqual(["Ideas", "work"]);
      expect(await changesSince(db, user.id, cursor)).toEqual([
        ["tag", "updated", ideas.id, null],
        ["note", "updated", both.id, 2],
      ]);
    });
  });

  it("a deletion gives each note that carried the tag a new version without it: its ETag changes and the feed lists it; other notes keep theirs", async () => {
    await database.withDb(async (db) => {
      const { user, person, ideas, both, workOnly, untagged } = await setUp(db);
      const before = await getNoteOrThrow(db, { id: both.id, userId: user.id });
      const cursor = await cursorOf(db, user.id);

      await deleteTag(db, { id: ideas.id, userId: user.id, author: person });

      const after = await getNoteOrThrow(db, { id: both.id, userId: user.id });
      expect(after.version).toBe(2);
      expect(await etagOf(db, both.id, user.id)).toBe(noteEtag(2));
      expect(after.note.tags.map((tag) => tag.name)).toEqual(["work"]);
      expect(after.note.updatedAt).toBe(before.note.updatedAt);
      expect(await etagOf(db, workOnly.id, user.id)).toBe(noteEtag(1));
      expect(await etagOf(db, untagged.id, user.id)).toBe(noteEtag(1));
      expect((await changesSince(db, user.id, cursor)).sort()).toEqual(
        [
          ["note", "updated", both.id, 2],
          ["tag", "deleted", ideas.id, null],
        ].sort(),
      );
    });
  });

  it("a note's own writes still work with If-Match: at the new version they succeed, at the version before the rename they are 412 with the note as it is", async () => {
    await database.withDb(async (db) => {
      const { user, person, ideas, work, both } = await setUp(db);
      await renameTag(db, { id: ideas.id, userId: user.id, author: person, input: { name: "plans" } });

      const stale = await updateNote(db, { id: both.id, userId: user.id, author: person, input: { title: "Both, renamed" }, ifVersion: 1 }).catch((err: unknown) => err);
      expect(stale).toBeInstanceOf(AppError);
      expect(stale).toMatchObject({ code: "NOTE_MODIFIED", status: 412, headers: { ETag: noteEtag(2) } });
      expect((stale as AppError).fields?.note).toMatchObject({ title: "Both", tags: [{ id: ideas.id, name: "plans" }, { id: work.id, name: "work" }] });

      const saved = await updateNote(db, { id: both.id, userId: user.id, author: person, input: { title: "Both, renamed" }, ifVersion: 2 });
      expect(saved.version).toBe(3);
      expect(saved.note.tags.map((tag) => tag.name)).toEqual(["plans", "work"]);

      await deleteTag(db, { id: work.id, userId: user.id, author: person });
      const retagged = await updateNote(db, { id: both.id, userId: user.id, author: person, input: { tagIds: [] }, ifVersion: 4 });
      expect(retagged.version).toBe(5);
      await deleteNote(db, { id: both.id, userId: user.id, ifVersion: 5 });
    });
  });

  it("the history stays whole: its newest revision is the note's version, with the tags the note has", async () => {
    await database.withDb(async (db) => {
      const { user, person, ideas, work, both } = await setUp(db);
      const history = () =>
        db.$queryRaw<{ version: number; tag_ids: string[] }[]>`
          SELECT version, tag_ids::text[] AS tag_ids FROM note_revisions WHERE note_id = ${both.id}::uuid ORDER BY version DESC`;
      await renameTag(db, { id: ideas.id, userId: user.id, author: person, input: { name: "plans" } });
      expect((await history())[0]).toEqual({ version: 2, tag_ids: [ideas.id, work.id].sort() });
      await deleteTag(db, { id: work.id, userId: user.id, author: person });
      expect((await history())[0]).toEqual({ version: 3, tag_ids: [ideas.id] });
      await updateNote(db, { id: both.id, userId: user.id, author: person, input: { contentText: "one, edited" }, ifVersion: 3 });
      expect((await history())[0]).toEqual({ version: 4, tag_ids: [ideas.id] });
    });
  });

  it("a note's own change of tags, and its move to the trash, are one change each", async () => {
    await database.withDb(async (db) => {
      const { user, ideas, both } = await setUp(db);
      const cursor = await cursorOf(db, user.id);
      const retagged = await updateNote(db, { id: both.id, userId: user.id, input: { tagIds: [ideas.id] } });
      expect(retagged.version).toBe(2);
      await deleteNote(db, { id: both.id, userId: user.id });
      expect(await changesSince(db, user.id, cursor)).toEqual([
        ["note", "updated", both.id, 2],
        ["note", "deleted", both.id, null],
      ]);
    });
  });

  it("erasing an account whose notes carry tags removes it whole", async () => {
    await database.withDb(async (db) => {
      const { user } = await setUp(db);
      expect(await eraseUser(db, { userId: user.id })).toEqual({ id: user.id, email: user.email });
      expect(await db.note.count({ where: { userId: user.id } })).toBe(0);
      expect(await db.noteRevision.count({ where: { userId: user.id } })).toBe(0);
      expect(await db.change.count({ where: { userId: user.id } })).toBe(0);
    });
  });
});
