import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wholeMarkdown } from "@/lib/body/markdown-blocks";
import { getNoteMarkdownOrThrow } from "@/lib/notes/body";
import { editNote } from "@/lib/notes/edits";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { ZEditNoteSchema } from "@/lib/notes/schemas";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { inlineContent, noteBody } from "@/tests/helpers/note-arbitraries";
import { useTestDatabase } from "@/tests/helpers/test-db";

/**
 * The Markdown a write stores beside a note's blocks is written by the
 * conversion worker, which remembers the Markdown of runs of blocks it wrote
 * before (lib/body/markdown-blocks.ts). Over generated notes and sequences of
 * writes (whole bodies, one block changed by a targeted edit, Markdown
 * appended), with the worker's memo warm from every write before, the stored
 * Markdown is the blocks' Markdown written in one piece.
 */
const RUNS = Number(process.env.FC_DB_RUNS ?? 12);

/**
 * The Markdown with each block that travels as its JSON (`<!-- notes:block … -->`)
 * written with its keys in one order: the database keeps JSON's keys in an
 * order of its own, so the blocks a write was given and the same blocks read
 * back write their JSON with the same keys in different orders.
 */
function sameKeyOrder(markdown: string): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sorted(v)])) : value;
  return markdown.replace(/<!-- notes:block (.*?) -->/g, (_line, json: string) => `<!-- notes:block ${JSON.stringify(sorted(JSON.parse(json)))} -->`);
}

/** Blocks whose content is styled text, which update_block may replace with any. */
const TEXT_BLOCKS = new Set(["paragraph", "heading", "quote", "bulletListItem", "numberedListItem", "checkListItem", "toggleListItem"]);

type Write = { kind: "patch"; body: unknown[] } | { kind: "edit"; index: number; content: unknown[] } | { kind: "append"; text: string };

const write: fc.Arbitrary<Write> = fc.oneof(
  noteBody.map((body): Write => ({ kind: "patch", body })),
  fc.tuple(fc.nat(), inlineContent()).map(([index, content]): Write => ({ kind: "edit", index, content })),
  fc.stringMatching(/^[a-z][a-z ]{0,20}$/).map((text): Write => ({ kind: "append", text })),
);

describe.each(TEST_DB_KINDS)("the Markdown stored beside a note's blocks (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("is the blocks' Markdown written in one piece, after any sequence of writes", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const stored = async (id: string) => {
        const row = await db.note.findUniqueOrThrow({ where: { id }, select: { content: true, contentMarkdown: true } });
        return { content: row.content as { id: string; type: string }[], markdown: row.contentMarkdown };
      };
      await fc.assert(
        fc.asyncProperty(noteBody, fc.array(write, { minLength: 1, maxLength: 4 }), async (body, writes) => {
          const { note } = await createNote(db, { userId: user.id, input: { title: "Stored", content: body } });
          for (const next of writes) {
            const { content } = await stored(note.id);
            if (next.kind === "patch") await updateNote(db, { id: note.id, userId: user.id, input: { content: next.body } });
            else if (next.kind === "append") await editNote(db, { id: note.id, userId: user.id, operations: ZEditNoteSchema.parse({ operations: [{ op: "append", markdown: next.text }] }).operations });
            else {
              const texts = content.filter((block) => TEXT_BLOCKS.has(block.type));
              if (texts.length === 0) continue;
              const target = texts[next.index % texts.length]!;
              const operations = ZEditNoteSchema.parse({ operations: [{ op: "update_block", blockId: target.id, content: next.content }] }).operations;
              await editNote(db, { id: note.id, userId: user.id, operations });
            }
            const after = await stored(note.id);
            expect(sameKeyOrder(after.markdown ?? "")).toBe(sameKeyOrder(wholeMarkdown(after.content)));
          }
        }),
        { numRuns: RUNS },
      );
    });
  });

  it("of a note given only its text is its lines' paragraphs, rendered on the first Markdown read; the migration clears the empty one stored before", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const { note } = await createNote(db, { userId: user.id, input: { title: "Text", contentText: "milk\n*eggs*" } });
      expect((await db.note.findUniqueOrThrow({ where: { id: note.id }, select: { contentMarkdown: true } })).contentMarkdown).toBeNull();
      expect((await getNoteMarkdownOrThrow(db, { id: note.id, userId: user.id })).markdown).toBe("# Text\n\nmilk\n\n\\*eggs\\*\n");
      // As an earlier release stored it: an empty body.
      await db.note.update({ where: { id: note.id }, data: { contentMarkdown: "" } });
      const migration = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/migrations/20261129150000_text_bodies_markdown_from_text/migration.sql"), "utf8");
      for (const statement of migration.replace(/^--.*$/gm, "").split(";").map((part) => part.trim()).filter(Boolean)) await db.$executeRawUnsafe(statement);
      expect((await getNoteMarkdownOrThrow(db, { id: note.id, userId: user.id })).markdown).toContain("milk");

      // A body of JSON null is no body either: a new text alone is its Markdown.
      await updateNote(db, { id: note.id, userId: user.id, input: { content: null, contentText: "tea" } });
      expect((await getNoteMarkdownOrThrow(db, { id: note.id, userId: user.id })).markdown).toBe("# Text\n\ntea\n");
      await updateNote(db, { id: note.id, userId: user.id, input: { contentText: "coffee" } });
      expect((await getNoteMarkdownOrThrow(db, { id: note.id, userId: user.id })).markdown).toBe("# Text\n\ncoffee\n");
    });
  });
});
