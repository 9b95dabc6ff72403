import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agentAuthor, personAuthor } from "@/lib/db/author";
import type { Db } from "@/lib/db/client";
import { storedBlockProblem } from "@/lib/body/block-shape";
import { AppError } from "@/lib/errors";
import { editNote } from "@/lib/notes/edits";
import { createNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { updateNote } from "@/lib/notes/mutations";
import { getRevisionOrThrow, listRevisions } from "@/lib/revisions/queries";
import { ZEditNoteSchema } from "@/lib/notes/schemas";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { heading, paragraphWithId } from "@/tests/helpers/rich-notes";
import { useTestDatabase } from "@/tests/helpers/test-db";

type Block = { id: string; type: string; props: Record<string, unknown>; content?: unknown; children: Block[] };

/** An edit's failure as the API answers it: status and body. */
async function failureOf(promise: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> } | unknown> {
  const err = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  return err instanceof AppError ? { status: err.status, body: { error: err.userMessage, ...err.fields } } : err;
}

/** The contract's 400 for a body that fails the schema, its details naming the operation's field and the problem. */
const invalid = (key: string, message: string) => ({
  status: 400,
  body: { error: "Invalid request body", details: { formErrors: [], fieldErrors: { [key]: [message] } } },
});

describe.each(TEST_DB_KINDS)("targeted edits refuse blocks the editor cannot read (%s)", (kind) => {
  const database = useTestDatabase(kind);

  const setUp = async (db: Db) => {
    const user = await createUser(db, { email: `${randomUUID()}@example.com` });
    const content = [heading(2, "Plan"), { ...paragraphWithId("p-1", "intro"), children: [paragraphWithId("p-2", "nested")] }] as Block[];
    const { note } = await createNote(db, { userId: user.id, input: { title: "Plan", content } });
    // As the route parses it.
    const edit = (operations: unknown[]) => editNote(db, { id: note.id, userId: user.id, operations: ZEditNoteSchema.parse({ operations }).operations });
    const current = async () => {
      const { note: read, version } = await getNoteOrThrow(db, { id: note.id, userId: user.id });
      return { content: read.content as Block[], version };
    };
    return { edit, current, content };
  };

  it.each<[string, unknown[], string, string]>([
    [
      "an unknown type through update_block",
      [{ op: "update_block", blockId: "p-1", type: "definitelyNotABlock" }],
      "operations.0.type",
      'operations[0] (update_block): type: unknown block type "definitelyNotABlock"',
    ],
    [
      "content that is not inline content",
      [{ op: "update_block", blockId: "p-1", content: { evil: true } }],
      "operations.0.content",
      "operations[0] (update_block): content: must be a list of inline content",
    ],
    [
      "an unknown type appended",
      [{ op: "set_title", title: "Renamed" }, { op: "append", blocks: [{ type: "paragraph", content: "fine" }, { type: "definitelyNotABlock" }] }],
      "operations.1.blocks",
      'operations[1] (append): blocks[1].type: unknown block type "definitelyNotABlock"',
    ],
    [
      "an unknown type as a child",
      [{ op: "update_block", blockId: "p-1", children: [{ type: "paragraph", content: "ok", children: [{ type: "definitelyNotABlock" }] }] }],
      "operations.0.children",
      'operations[0] (update_block): children[0].children[0].type: unknown block type "definitelyNotABlock"',
    ],
    [
      "an unknown prop inserted into a section",
      [{ op: "insert_after_section", heading: "Plan", blocks: [{ type: "paragraph", children: [{ type: "paragraph", props: { level: 2 } }] }] }],
      "operations.0.blocks",
      'operations[0] (insert_after_section): blocks[0].children[0].props: unknown prop "level" for a "paragraph" block',
    ],
    [
      "a prop the block's own type does not have",
      [{ op: "update_block", blockId: "p-2", props: { level: 9 } }],
      "operations.0.props",
      'operations[0] (update_block): props: unknown prop "level" for a "paragraph" block',
    ],
    [
      "a prop value the new type does not allow",
      [{ op: "update_block", blockId: "p-1", type: "heading", props: { level: 9 } }],
      "operations.0.props",
      "operations[0] (update_block): props.level: must be one of 1, 2, 3, 4, 5, 6",
    ],
    [
      "a type whose content the block's does not fit",
      [{ op: "update_block", blockId: "p-1", type: "divider" }],
      "operations.0.content",
      'operations[0] (update_block): content: a "divider" block has no content, and this block\'s is not empty: delete the block and insert a new one instead',
    ],
  ])("%s is a 400 naming the operation and the path, and writes nothing", async (_name, operations, key, message) => {
    await database.withDb(async (db) => {
      const { edit, current } = await setUp(db);
      const before = await current();
      expect(await failureOf(edit(operations))).toEqual(invalid(key, message));
      expect(await current()).toEqual(before);
    });
  });

  it("valid block edits still land, and what they store is read as blocks", async () => {
    await database.withDb(async (db) => {
      const { edit, current, content } = await setUp(db);
      await edit([
        { op: "update_block", blockId: "p-1", type: "heading", props: { level: 3 }, content: [{ type: "text", text: "now a heading", styles: { bold: true } }] },
        { op: "update_block", blockId: "p-2", type: "checkListItem", props: { checked: true } },
        { op: "append", blocks: [{ id: "t-1", type: "table", props: { textColor: "default" }, content: { type: "tableContent", columnWidths: [null, 120], rows: [{ cells: [[], []] }] }, children: [] }] },
      ]);
      const after = await current();
      expect(after.version).toBe(2);
      const [, retyped, table] = after.content;
      // The heading's level replaces nothing; the paragraph's props carry over, and a check item keeps its text.
      expect(retyped).toEqual({ ...content[1], type: "heading", props: { ...content[1]!.props, level: 3 }, content: [{ type: "text", text: "now a heading", styles: { bold: true } }], children: [{ ...content[1]!.children[0], type: "checkListItem", props: { ...content[1]!.children[0]!.props, checked: true } }] });
      expect(after.content.map((block, i) => storedBlockProblem(block, `content[${i}]`))).toEqual([null, null, null]);
      expect(table!.id).toBe("t-1");

      // A new type drops the props it does not have, as the editor does: a heading's level means nothing to a paragraph.
      await edit([{ op: "update_block", blockId: "p-1", type: "paragraph" }]);
      expect((await current()).content[1]!.props).toEqual(content[1]!.props);
      // An empty paragraph may become a divider: no content is lost.
      await edit([
        { op: "update_block", blockId: "p-1", content: [] },
        { op: "update_block", blockId: "p-1", type: "divider" },
      ]);
      const divider = (await current()).content[1]!;
      expect(divider).toEqual({ id: "p-1", type: "divider", props: {}, children: divider.children });
      expect(storedBlockProblem(divider, "divider")).toBeNull();
    });
  });
});

describe.each(TEST_DB_KINDS)("targeted edits in the history (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("keeps every version an edit makes, each read back as the note was, whoever edits and whatever changes", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const agent = agentAuthor("api", user);
      const person = personAuthor(user, randomUUID());
      const blocks = Array.from({ length: 40 }, (_, i) => paragraphWithId(`b-${i}`, `Paragraph ${i}: café 😀 text.`)) as Block[];
      blocks[5] = { ...heading(2, "Plan"), id: "h-plan" } as Block;
      blocks[8] = { ...heading(2, "Next"), id: "h-next" } as Block;
      blocks[9] = { ...paragraphWithId("b-9", "with a child"), children: [paragraphWithId("b-9-1", "nested 😁")] } as Block;
      const { note } = await createNote(db, { userId: user.id, input: { title: "Long", content: blocks } });
      const edit = (author: typeof agent, operations: unknown[]) =>
        editNote(db, { id: note.id, userId: user.id, author, operations: ZEditNoteSchema.parse({ operations }).operations });
      const states = new Map<number, { content: unknown; contentText: string }>();
      const remember = async () => {
        const { note: read, version } = await getNoteOrThrow(db, { id: note.id, userId: user.id });
        states.set(version, { content: read.content, contentText: read.contentText });
      };
      await remember();
      const steps: [typeof agent, unknown[]][] = [
        [agent, [{ op: "update_block", blockId: "b-20", content: "Rewritten 😀 in the middle" }]],
        [agent, [{ op: "update_block", blockId: "b-9-1", content: "the child changed é" }]],
        [agent, [{ op: "append", markdown: "An appended paragraph." }]],
        [agent, [{ op: "prepend", blocks: [paragraphWithId("first", "A new first 😁")] }]],
        [agent, [{ op: "delete_block", blockId: "b-30" }]],
        [agent, [{ op: "move_block", blockId: "b-2", to: "end" }]],
        [agent, [{ op: "replace_text", find: "Paragraph 1:", replace: "Paragraph one:", expectedCount: 1 }]],
        [agent, [{ op: "replace_section", heading: "Plan", keepHeading: true, markdown: "New plan 😀." }]],
        // A person's edits in one session join one revision, each edit's change inside the one before.
        [person, [{ op: "update_block", blockId: "b-25", content: "a person's first" }]],
        [person, [{ op: "update_block", blockId: "b-26", content: "a person's second" }]],
        [person, [{ op: "update_block", blockId: "b-25", content: "a person's third" }, { op: "set_title", title: "Renamed" }]],
        [agent, [{ op: "insert_after_section", heading: "Plan", blocks: [paragraphWithId("after-plan", "after")] }, { op: "delete_block", blockId: "b-39" }]],
      ];
      for (const [author, operations] of steps) {
        await edit(author, operations);
        await remember();
        // A PATCH of the whole content between edits: the history continues from it.
        if (states.size === 6) {
          const { note: read } = await getNoteOrThrow(db, { id: note.id, userId: user.id });
          await updateNote(db, { id: note.id, userId: user.id, author: agent, input: { content: [...(read.content as Block[]), paragraphWithId("patched", "patched")] } });
          await remember();
        }
      }
      const { revisions } = await listRevisions(db, { noteId: note.id, userId: user.id, limit: 100 });
      // The person's three edits are one revision: the state after the first two is not a version of its own.
      const folded = [...states.keys()].slice(-4, -2);
      expect(revisions.map((revision) => revision.version).sort((a, b) => a - b)).toEqual([...states.keys()].filter((version) => !folded.includes(version)));
      for (const revision of revisions) {
        const { revision: read } = await getRevisionOrThrow(db, { noteId: note.id, revisionId: revision.id, userId: user.id });
        expect({ version: revision.version, content: read.content, contentText: read.contentText }).toEqual({ version: revision.version, ...states.get(revision.version) });
      }
      // A one-block edit stored that block and the characters around it that changed, not the note
      // (version 3: the text of version 1 is empty, as createNote was given none).
      const [first] = await db.$queryRaw<{ keep_head: number; keep_tail: number; blocks: unknown[]; text_keep_head: number; text_keep_tail: number }[]>`
        SELECT keep_head, keep_tail, blocks, text_keep_head, text_keep_tail FROM note_revisions WHERE note_id = ${note.id}::uuid AND version = 3`;
      expect(first).toMatchObject({ keep_head: 9, keep_tail: 30, blocks: [expect.objectContaining({ id: "b-9" })] });
      expect(first!.text_keep_head).toBeGreaterThan(0);
      expect(first!.text_keep_tail).toBeGreaterThan(0);
    });
  });
});
