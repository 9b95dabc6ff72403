import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { listNoteRowGroups } from "@/lib/notes/rows";
import { createTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useTestDatabase } from "@/tests/helpers/test-db";

const text = (value: string) => [{ type: "text", text: value, styles: {} }];

// The rows the notes page and the list beside an open note show (pinned, then a
// page of the rest): text only
// (never a body's blocks), the search's matches marked, the notes an agent
// changed last flagged, in the groups and order they were given.
describe.each(TEST_DB_KINDS)("note rows for the lists (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("rows carry the title, the start of the written text (no file names), the tags and who changed the note last", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const tag = await createTag(db, { userId: user.id, input: { name: "trips" } });
      const content = [
        { type: "paragraph", content: text("Photos from the coast.") },
        { type: "image", props: { url: "https://example.com/a.png", name: "IMG_2041.png", caption: "The harbour" } },
      ];
      const { note: person } = await createNote(db, { userId: user.id, input: { title: "Coast", content, contentText: contentToText(content), tagIds: [tag.id], pinned: true } });
      const { note: agent } = await createNote(db, { userId: user.id, author: { kind: "api", email: user.email }, input: { title: "From an agent", contentText: "Plain text\nin two lines" } });
      // A person's later write makes it theirs again.
      const { note: retaken } = await createNote(db, { userId: user.id, author: { kind: "mcp", email: user.email }, input: { title: "Retaken", contentText: "agent text" } });
      await updateNote(db, { id: retaken.id, userId: user.id, input: { title: "Retaken by a person" } });

      const { pinned: pinnedRows, pinnedTotal, others: otherRows, othersTotal } = await listNoteRowGroups(db, { userId: user.id, pinnedLimit: 10, limit: 10, offset: 0 });
      expect([pinnedTotal, othersTotal]).toEqual([1, 2]);

      expect(pinnedRows).toEqual([
        {
          id: person.id,
          title: [{ text: "Coast", match: false }],
          excerpt: [{ text: "Photos from the coast. · The harbour", match: false }],
          tags: [{ id: tag.id, name: "trips" }],
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          agent: false,
        },
      ]);
      expect(otherRows.map((row) => [row.id, row.title[0]!.text, row.excerpt.map((part) => part.text).join(""), row.agent])).toEqual([
        [retaken.id, "Retaken by a person", "agent text", false],
        [agent.id, "From an agent", "Plain text · in two lines", true],
      ]);
      // A later page counts the pinned notes but lists none of them.
      const later = await listNoteRowGroups(db, { userId: user.id, pinnedLimit: 0, limit: 1, offset: 1 });
      expect([later.pinned, later.pinnedTotal, later.others.map((row) => row.id), later.othersTotal]).toEqual([[], 1, [agent.id], 2]);
      // Nothing of the body's blocks travels in a row.
      expect(JSON.stringify([pinnedRows, otherRows])).not.toContain("IMG_2041");
    });
  });

  it("with a search, every match is marked in titles and in the text around the first one, in each group", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const long = `${"Filler words before anything. ".repeat(12)}The ferry to Lisbon leaves at nine; the ferry back at six.`;
      await createNote(db, { userId: user.id, input: { title: "Ferry times", contentText: long, pinned: true } });
      await createNote(db, { userId: user.id, input: { title: "Nothing here", contentText: "A ferry." } });
      const search = "ferry";
      const {
        pinned: [first],
        others: [second],
      } = await listNoteRowGroups(db, { userId: user.id, search, sort: "relevance", pinnedLimit: 10, limit: 10, offset: 0 });

      expect(first!.title).toEqual([
        { text: "Ferry", match: true },
        { text: " times", match: false },
      ]);
      const marked = first!.excerpt.filter((part) => part.match).map((part) => part.text);
      expect(marked).toEqual(["ferry", "ferry"]);
      // The excerpt starts near the first match, not at the filler.
      expect(first!.excerpt[0]).toEqual({ text: "…", match: false });
      expect(second!.excerpt).toEqual([
        { text: "A ", match: false },
        { text: "ferry", match: true },
        { text: ".", match: false },
      ]);
    });
  });
});
