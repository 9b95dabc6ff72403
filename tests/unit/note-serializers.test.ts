import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow, listNotesJson } from "@/lib/notes/queries";
import { createTag } from "@/lib/tags/mutations";
import { listTagsWithNoteCounts } from "@/lib/tags/queries";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { createTestDatabase, type TestDatabase } from "@/tests/helpers/test-db";

describe.each(TEST_DB_KINDS)("the note's JSON on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database?.drop());

  it("a list page (built by the database) has each note as a single read has it: same keys, same order, same values", async () => {
    await database.withDb(async (db) => {
      const { id: userId } = await createUser(db, { email: "serializers@example.com" });
      const zeta = await createTag(db, { userId, input: { name: "zeta" } });
      const alpha = await createTag(db, { userId, input: { name: "Alpha" } });
      const content = [{ type: "paragraph", content: [{ type: "text", text: "Ünïcode “quotes” \\ and \"escapes\"", styles: {} }], children: [] }];
      await createNote(db, { userId, input: { title: "Untagged", content: [], contentText: "" } });
      const { note } = await createNote(db, { userId, input: { title: "Tagged", content, contentText: "x", tagIds: [zeta.id, alpha.id] } });
      // A timestamp whose milliseconds end in zeros still has all three digits in both.
      await db.$executeRaw`UPDATE notes SET updated_at = '2026-01-02T03:04:05.100Z' WHERE id = ${note.id}::uuid`;

      const page = await listNotesJson(db, { userId, limit: 10, offset: 0 });
      const listed = page.noteJsons.map((json) => JSON.parse(json) as { id: string });
      const single = await Promise.all(listed.map(({ id }) => getNoteOrThrow(db, { id, userId })));
      // Whitespace aside (the database's JSON has some), re-encoding shows key order too.
      expect(JSON.stringify(listed)).toBe(JSON.stringify(single.map((read) => read.note)));
      expect(single.at(-1)!.note.updatedAt).toBe("2026-01-02T03:04:05.100Z");
      expect(single.find((read) => read.note.id === note.id)!.note.tags.map((tag) => tag.name)).toEqual(["Alpha", "zeta"]);
    });
  });

  it("tag counts are the counters list totals use, kept through tagging and untagging", async () => {
    await database.withDb(async (db) => {
      const { id: userId } = await createUser(db, { email: "counts@example.com" });
      const tag = await createTag(db, { userId, input: { name: "work" } });
      const first = await createNote(db, { userId, input: { title: "One", tagIds: [tag.id] } });
      await createNote(db, { userId, input: { title: "Two", tagIds: [tag.id] } });
      await updateNote(db, { id: first.note.id, userId, input: { tagIds: [] }, ifVersion: first.version });

      const [counted] = await listTagsWithNoteCounts(db, { userId });
      const { total } = await listNotesJson(db, { userId, tagId: tag.id, limit: 10, offset: 0 });
      expect(counted).toMatchObject({ name: "work", noteCount: 1 });
      expect(total).toBe(1);
    });
  });
});
