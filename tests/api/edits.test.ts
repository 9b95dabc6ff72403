import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";
import { heading, paragraph, richNotes } from "@/tests/helpers/rich-notes";

type Block = { id: string; type: string; props?: Record<string, unknown>; content?: unknown; children?: Block[] };

const MISSING_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";

describe.each(TEST_DB_KINDS)("targeted edits: POST /api/notes/{id}/edits (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 40 });

  const create = (user: SeededUser, body: Record<string, unknown>) => stack.createNote<{ id: string; title: string; content: Block[]; contentText: string; tags: { id: string }[] }>(user, body);
  const edit = (user: SeededUser, id: string, operations: unknown[], headers: Record<string, string> = {}) =>
    stack.api(`/api/notes/${id}/edits`, { method: "POST", token: user.token(), json: { operations }, headers });
  async function edited(user: SeededUser, id: string, operations: unknown[]) {
    const res = await edit(user, id, operations);
    expect(res.status, res.text).toBe(200);
    return res.body.note as { title: string; content: Block[]; contentText: string; tags: { id: string }[] };
  }
  const read = async (user: SeededUser, id: string) => {
    const res = await stack.api(`/api/notes/${id}`, { token: user.token() });
    expect(res.status).toBe(200);
    return { note: res.body.note, etag: res.headers.get("etag") };
  };
  const markdown = async (user: SeededUser, id: string) => (await stack.api(`/api/notes/${id}?format=markdown`, { token: user.token() })).text;

  /** A note with two sections, every block styled so that a rewrite would show. */
  const planNote = () => [
    heading(1, "Plan"),
    paragraph("Intro about the plan", { textColor: "red" }),
    heading(2, "Steps"),
    paragraph("Build it on Friday", { textAlignment: "center" }),
    heading(2, "Risks"),
    paragraph("Friday may slip", { backgroundColor: "yellow" }),
  ];

  it("a note given only its text is its lines' paragraphs: in its outline, its Markdown and its edits, which keep every line", async () => {
    const user = stack.freshUser();
    // As the README's first example makes one: no blocks, only text, Markdown's syntax in it read literally.
    const note = await create(user, { title: "Groceries", contentText: "milk, eggs\n\n# not a *heading*" });
    const outline = await stack.api(`/api/notes/${note.id}?format=blocks`, { token: user.token() });
    expect(outline.body.blocks).toEqual([
      { id: "line-1", type: "paragraph", text: "milk, eggs" },
      { id: "line-2", type: "paragraph", text: "" },
      { id: "line-3", type: "paragraph", text: "# not a *heading*" },
    ]);
    const asMarkdown = await markdown(user, note.id);
    expect(asMarkdown).toContain("milk, eggs");
    // Written back as read, the text stays text: the same lines, as blocks now.
    const back = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: asMarkdown } });
    expect(back.body.note.contentText).toBe("milk, eggs\n# not a *heading*");
    expect(back.body.note.content.map((block: Block) => block.type)).toEqual(["paragraph", "paragraph", "paragraph"]);

    const other = await create(user, { title: "List", contentText: "milk, eggs\ncoffee" });
    const appended = await edited(user, other.id, [{ op: "append", markdown: "- bread" }]);
    expect(appended.contentText).toBe("milk, eggs\ncoffee\nbread");
    expect(appended.content.map((block) => [block.id.startsWith("line-") ? block.id : "new", block.type])).toEqual([
      ["line-1", "paragraph"],
      ["line-2", "paragraph"],
      ["new", "bulletListItem"],
    ]);
    const third = await create(user, { title: "Tea", contentText: "green\nblack" });
    expect((await edited(user, third.id, [{ op: "update_block", blockId: "line-2", content: "oolong" }])).contentText).toBe("green\noolong");
    expect((await edited(user, third.id, [{ op: "replace_text", find: "green", replace: "white", expectedCount: 1 }])).contentText).toBe("white\noolong");

    // The text changed alone, its Markdown follows.
    const plain = await create(user, { title: "Plain", contentText: "first words" });
    expect(await markdown(user, plain.id)).toContain("first words");
    await stack.api(`/api/notes/${plain.id}`, { method: "PATCH", token: user.token(), json: { contentText: "second words" } });
    const now = await markdown(user, plain.id);
    expect(now).toContain("second words");
    expect(now).not.toContain("first words");
  });

  it("append and prepend Markdown or blocks; untouched blocks keep their JSON exactly, Markdown and search follow", async () => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Plan", content });
    const res = await edit(user, note.id, [
      { op: "append", markdown: "- [ ] call Sam about *tortellini*" },
      { op: "prepend", blocks: [{ type: "paragraph", content: "Top line" }] },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("etag")).toBe('"v2"');
    const after = res.body.note.content as Block[];
    expect(after.slice(1, -1)).toEqual(content);
    expect(after[0]).toMatchObject({ type: "paragraph", content: "Top line", id: expect.any(String) });
    expect(after.at(-1)).toMatchObject({ type: "checkListItem", id: expect.any(String) });
    expect(res.body.note.contentText).toContain("call Sam about tortellini");
    expect(await markdown(user, note.id)).toContain("* [ ] call Sam about *tortellini*");
    const found = await stack.api("/api/notes?search=tortellini", { token: user.token() });
    expect(found.body.notes.map((n: { id: string }) => n.id)).toEqual([note.id]);
  });

  it("replace_text with expectedCount; a mismatch answers 409 with the count found and writes nothing", async () => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Plan", content });
    const mismatch = await edit(user, note.id, [{ op: "replace_text", find: "Friday", replace: "Monday" }]);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toEqual({
      error: "operations[0] (replace_text): expected 1 match of the text, found 2; nothing was written",
      operation: 0,
      expectedCount: 1,
      foundCount: 2,
    });
    expect((await read(user, note.id)).etag).toBe('"v1"');

    const after = await edited(user, note.id, [{ op: "replace_text", find: "Friday", replace: "Monday", expectedCount: 2 }]);
    expect(after.content.map((block) => block.id)).toEqual(content.map((block) => block.id));
    expect(after.content[3]).toEqual({ ...content[3], content: "Build it on Monday" });
    expect(after.content[5]).toEqual({ ...content[5], content: "Monday may slip" });
    expect(after.content.filter((_, i) => i !== 3 && i !== 5)).toEqual(content.filter((_, i) => i !== 3 && i !== 5));
    expect(after.contentText).not.toContain("Friday");
  });

  it("replace, insert before and insert after a section named by its heading", async () => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Plan", content });
    const after = await edited(user, note.id, [
      { op: "replace_section", heading: "Steps", markdown: "## Steps\n\n1. Design\n2. Build" },
      { op: "insert_before_section", heading: "Risks", markdown: "Before risks" },
      { op: "insert_after_section", heading: "Risks", markdown: "After risks" },
      { op: "replace_section", heading: "Plan", level: 1, keepHeading: true, blocks: [{ type: "paragraph", content: "Only this under Plan" }] },
    ]);
    // Plan (level 1) spans the whole note, so keepHeading leaves only its heading and the new paragraph.
    expect(after.content).toHaveLength(2);
    expect(after.content[0]).toEqual(content[0]);

    const other = await create(user, { title: "Plan", content });
    const sections = await edited(user, other.id, [
      { op: "replace_section", heading: "Steps", markdown: "## Steps\n\n1. Design\n2. Build" },
      { op: "insert_before_section", heading: "Risks", markdown: "Before risks" },
      { op: "insert_after_section", heading: "Risks", markdown: "After risks" },
    ]);
    expect(sections.content.map((block) => block.type)).toEqual([
      "heading",
      "paragraph",
      "heading",
      "numberedListItem",
      "numberedListItem",
      "paragraph",
      "heading",
      "paragraph",
      "paragraph",
    ]);
    expect(sections.content.slice(0, 2)).toEqual(content.slice(0, 2));
    expect(sections.content.slice(6, 8)).toEqual(content.slice(4, 6));
    expect(sections.contentText.split("\n")).toEqual(["Plan", "Intro about the plan", "Steps", "Design", "Build", "Before risks", "Risks", "Friday may slip", "After risks"]);
  });

  it("update, move and delete a block by id, nested ones included", async () => {
    const user = stack.freshUser();
    const content = richNotes()[1]!.content as Block[];
    const note = await create(user, { title: "Lists", content });
    const nested = content[0]!.children![0]!;
    const after = await edited(user, note.id, [
      { op: "update_block", blockId: nested.id, props: { textColor: "red" }, content: "nested, edited" },
      { op: "move_block", blockId: content[5]!.id, to: "start" },
      { op: "move_block", blockId: content[2]!.id, after: content[3]!.id },
      { op: "delete_block", blockId: content[1]!.id },
      { op: "update_block", blockId: content[4]!.id, type: "paragraph" },
    ]);
    expect(after.content.map((block) => block.id)).toEqual([content[5]!.id, content[0]!.id, content[3]!.id, content[2]!.id, content[4]!.id]);
    expect(after.content[1]!.children![0]).toEqual({ ...nested, props: { ...nested.props, textColor: "red" }, content: "nested, edited" });
    // A new type keeps only the props it has, as the editor does: a paragraph has no checkbox.
    const { checked: _checked, ...paragraphProps } = content[4]!.props!;
    expect(after.content[4]).toEqual({ ...content[4], type: "paragraph", props: paragraphProps });
    expect(after.content[0]).toEqual(content[5]);
  });

  it("blocks given again with their own ids keep them; an id the note uses elsewhere gets a new one", async () => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Plan", content });
    const after = await edited(user, note.id, [
      { op: "replace_section", heading: "Steps", keepHeading: true, blocks: [{ ...content[3], content: "Build it on Monday" }] },
      { op: "append", blocks: [{ ...content[1], content: "A copy of the intro" }] },
    ]);
    expect(after.content[3]).toEqual({ ...content[3], content: "Build it on Monday" });
    expect(after.content.at(-1)!.id).not.toBe(content[1]!.id);
    expect(new Set(after.content.map((block) => block.id)).size).toBe(after.content.length);

    const lists = richNotes()[1]!.content as Block[];
    const listNote = await create(user, { title: "Lists", content: lists });
    const nested = lists[0]!.children![0]!;
    const updated = await edited(user, listNote.id, [{ op: "update_block", blockId: lists[0]!.id, children: [{ ...nested, content: "kept id" }, { type: "bulletListItem", content: "new" }] }]);
    expect(updated.content[0]!.children![0]).toEqual({ ...nested, content: "kept id" });
    expect(updated.content[0]!.children![1]!.id).toEqual(expect.any(String));
  });

  it("set_title, add_tags and remove_tags (unowned tag ids ignored, as PATCH's tagIds)", async () => {
    const user = stack.freshUser();
    const tag = async (owner: SeededUser, name: string) => (await stack.api("/api/tags", { method: "POST", token: owner.token(), json: { name } })).body.tag;
    const [a, b] = [await tag(user, "alpha"), await tag(user, "beta")];
    const foreign = await tag(stack.freshUser(), "foreign");
    const note = await create(user, { title: "Tagged", content: [], tagIds: [a.id] });
    const after = await edited(user, note.id, [
      { op: "set_title", title: "  Renamed  " },
      { op: "add_tags", tagIds: [b.id, foreign.id] },
      { op: "remove_tags", tagIds: [a.id] },
    ]);
    expect(after.title).toBe("Renamed");
    expect(after.tags.map((t) => t.id)).toEqual([b.id]);
    expect(after.content).toEqual([]);
    const listed = await stack.api(`/api/notes?tagId=${b.id}`, { token: user.token() });
    expect(listed.body.total).toBe(1);
  });

  it("is atomic: a list whose third operation fails writes nothing and names it", async () => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Plan", content });
    for (const [failing, error] of [
      [{ op: "delete_block", blockId: "no-such-block" }, "operations[2] (delete_block): no block has id no-such-block"],
      [{ op: "insert_after_section", heading: "Nowhere", markdown: "x" }, 'operations[2] (insert_after_section): no heading reads "Nowhere"'],
      [{ op: "move_block", blockId: content[1]!.id, before: "gone" }, "operations[2] (move_block): no block has id gone"],
    ] as const) {
      const res = await edit(user, note.id, [{ op: "append", markdown: "first" }, { op: "set_title", title: "Second" }, failing]);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error, operation: 2 });
    }
    const { note: current, etag } = await read(user, note.id);
    expect(etag).toBe('"v1"');
    expect(current.title).toBe("Plan");
    expect(current.content).toEqual(content);
  });

  it("needs no If-Match but honours one: a stale ETag is a 412 with the current note", async () => {
    const user = stack.freshUser();
    const note = await create(user, { title: "Guarded", contentMarkdown: "one" });
    const fresh = await edit(user, note.id, [{ op: "append", markdown: "two" }], { "If-Match": '"v1"' });
    expect(fresh.status).toBe(200);
    const stale = await edit(user, note.id, [{ op: "append", markdown: "three" }], { "If-Match": '"v1"' });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ error: "Note was modified", note: fresh.body.note });
    expect(stale.headers.get("etag")).toBe('"v2"');
  });

  it("ten clients editing at once without If-Match: every operation lands", async () => {
    const user = stack.freshUser();
    const markers = Array.from({ length: 10 }, (_, i) => `marker${i}`);
    const note = await create(user, { title: "Busy", content: markers.map((marker) => paragraph(`${marker} open`)) });
    const results = await Promise.all(
      markers.map((marker, i) =>
        edit(
          user,
          note.id,
          i % 2 === 0
            ? [{ op: "append", markdown: `appended ${marker}` }]
            : [{ op: "replace_text", find: `${marker} open`, replace: `${marker} closed` }],
        ),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(markers.map(() => 200));
    const { note: current, etag } = await read(user, note.id);
    expect(etag).toBe('"v11"');
    for (const [i, marker] of markers.entries()) {
      expect(current.contentText).toContain(i % 2 === 0 ? `appended ${marker}` : `${marker} closed`);
    }
    // The Markdown read renders whatever the edits stored, or renders it now.
    const md = await markdown(user, note.id);
    for (const marker of markers.filter((_, i) => i % 2 === 1)) expect(md).toContain(`${marker} closed`);
  });

  it("another user's note, a missing note and a bad id", async () => {
    const owner = stack.freshUser();
    const note = await create(owner, { title: "Mine", contentMarkdown: "secret" });
    const stranger = stack.freshUser();
    for (const id of [note.id, MISSING_ID]) {
      const res = await edit(stranger, id, [{ op: "append", markdown: "x" }]);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Note not found" });
    }
    expect((await edit(owner, "nope", [{ op: "append", markdown: "x" }])).body).toEqual({ error: "Invalid note id" });
    expect((await read(owner, note.id)).etag).toBe('"v1"');
  });

  it.each([
    ["no operations", { operations: [] }],
    ["not a list", { operations: "append" }],
    ["unknown op", { operations: [{ op: "explode" }] }],
    ["both blocks and markdown", { operations: [{ op: "append", markdown: "x", blocks: [{ type: "paragraph" }] }] }],
    ["neither blocks nor markdown", { operations: [{ op: "prepend" }] }],
    ["empty find", { operations: [{ op: "replace_text", find: "", replace: "x" }] }],
    ["zero expectedCount", { operations: [{ op: "replace_text", find: "a", replace: "b", expectedCount: 0 }] }],
    ["move with two targets", { operations: [{ op: "move_block", blockId: "a", to: "end", before: "b" }] }],
    ["update with nothing to change", { operations: [{ op: "update_block", blockId: "a" }] }],
    ["empty title", { operations: [{ op: "set_title", title: "  " }] }],
    ["tag id not a UUID", { operations: [{ op: "add_tags", tagIds: ["x"] }] }],
    ["NUL in text", { operations: [{ op: "append", markdown: "a\u0000b" }] }],
    ["NUL in a block id", { operations: [{ op: "delete_block", blockId: "a\u0000" }] }],
    ["NUL in a heading", { operations: [{ op: "insert_after_section", heading: "a\u0000", markdown: "x" }] }],
    ["an unpaired surrogate in a block type", { operations: [{ op: "update_block", blockId: "a", type: "\ud800" }] }],
    ["too many operations", { operations: Array.from({ length: 101 }, () => ({ op: "set_title", title: "x" })) }],
  ])("%s is a 400 with details", async (_name, body) => {
    const user = stack.freshUser();
    const note = await create(user, { title: "Bad bodies", contentMarkdown: "x" });
    const res = await stack.api(`/api/notes/${note.id}/edits`, { method: "POST", token: user.token(), json: body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
  });

  it.each([
    ["an unknown type through update_block", { op: "update_block", type: "definitelyNotABlock" }, "operations.0.type", 'operations[0] (update_block): type: unknown block type "definitelyNotABlock"'],
    ["content that is not inline content", { op: "update_block", content: { evil: true } }, "operations.0.content", "operations[0] (update_block): content: must be a list of inline content"],
    ["an unknown type appended", { op: "append", blocks: [{ type: "definitelyNotABlock" }] }, "operations.0.blocks", 'operations[0] (append): blocks[0].type: unknown block type "definitelyNotABlock"'],
    [
      "an unknown type as a child",
      { op: "update_block", children: [{ type: "paragraph", children: [{ type: "definitelyNotABlock" }] }] },
      "operations.0.children",
      'operations[0] (update_block): children[0].children[0].type: unknown block type "definitelyNotABlock"',
    ],
  ])("%s is a 400 naming the operation and the path; nothing is written", async (_name, operation, key, message) => {
    const user = stack.freshUser();
    const content = planNote();
    const note = await create(user, { title: "Blocks", content });
    const op = operation.op === "update_block" ? { ...operation, blockId: content[1]!.id } : operation;
    const res = await edit(user, note.id, [op]);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body", details: { formErrors: [], fieldErrors: { [key]: [message] } } });
    expect((await read(user, note.id)).etag).toBe('"v1"');
  });

  it("bad JSON is the contract's 400; an edit past the content limits is a 400 and writes nothing", async () => {
    const user = stack.freshUser();
    const note = await create(user, { title: "Limits", content: [paragraph("x")] });
    const raw = await stack.api(`/api/notes/${note.id}/edits`, { method: "POST", token: user.token(), raw: "{", headers: { "content-type": "application/json" } });
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ error: "Request body must be valid JSON" });
    const blocks = [{ type: "paragraph", content: "word ".repeat(190_000) }];
    expect((await edit(user, note.id, [{ op: "append", blocks }])).status).toBe(200);
    const over = await edit(user, note.id, [{ op: "append", blocks }]);
    expect(over.status).toBe(400);
    expect(over.body.details.fieldErrors.operations[0]).toMatch(/at most 1,900,000 bytes/);
    expect((await read(user, note.id)).etag).toBe('"v2"');
  });

  it("GET ?format=blocks lists each block's id, type and text, for addressing edits", async () => {
    const user = stack.freshUser();
    const content = richNotes()[1]!.content as Block[];
    const note = await create(user, { title: "Lists", content: [heading(2, "Todo"), ...content] });
    const res = await stack.api(`/api/notes/${note.id}?format=blocks`, { token: user.token() });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe('"v1"');
    expect(res.body.note).toMatchObject({ id: note.id, title: "Lists", tags: [] });
    expect(res.body.blocks[0]).toEqual({ id: expect.any(String), type: "heading", text: "Todo", level: 2 });
    expect(res.body.blocks[1]).toEqual({
      id: content[0]!.id,
      type: "bulletListItem",
      text: "first",
      children: [{ id: content[0]!.children![0]!.id, type: "bulletListItem", text: "nested" }],
    });
    expect(res.body.blocks).toHaveLength(content.length + 1);
  });
});

describe.each(TEST_DB_KINDS)("PATCH with contentMarkdown keeps the blocks it did not change (%s)", (kind) => {
  const stack = useApiStack(kind);

  /** The note's body as Markdown, as an agent reads it: the title heading comes off before writing back. */
  async function bodyMarkdown(user: SeededUser, id: string, title: string) {
    const res = await stack.api(`/api/notes/${id}?format=markdown`, { token: user.token() });
    expect(res.text.startsWith(`# ${title}\n\n`)).toBe(true);
    return { markdown: res.text.slice(`# ${title}\n\n`.length), etag: res.headers.get("etag")! };
  }

  it.each(richNotes().map((note) => [note.title, note] as const))("%s: the same Markdown written back changes no block", async (_title, { title, content }) => {
    const user = stack.freshUser();
    const created = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title, content } });
    const id = created.body.note.id;
    const { markdown, etag } = await bodyMarkdown(user, id, title);
    const res = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: markdown }, headers: { "If-Match": etag } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.note.content).toEqual(content);
    expect(res.body.note.contentText).toBe(contentToText(content));
    expect((await bodyMarkdown(user, id, title)).markdown).toBe(markdown);
  });

  it("one paragraph changed: exactly that block differs", async () => {
    const user = stack.freshUser();
    const { title, content } = richNotes()[2]!;
    const created = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title, content } });
    const id = created.body.note.id;
    const { markdown } = await bodyMarkdown(user, id, title);
    const res = await stack.api(`/api/notes/${id}`, {
      method: "PATCH",
      token: user.token(),
      json: { contentMarkdown: markdown.replace("Closing words", "Closing words, revised") },
    });
    expect(res.status, res.text).toBe(200);
    const after = res.body.note.content as Block[];
    expect(after).toHaveLength(content.length);
    const differing = after.flatMap((block, i) => (isDeepStrictEqual(block, content[i]) ? [] : [i]));
    expect(differing).toEqual([content.length - 1]);
    expect(res.body.note.contentText).toContain("Closing words, revised");
  });

  it("a line added at the end keeps every block before it; a stale If-Match still writes nothing", async () => {
    const user = stack.freshUser();
    const { title, content } = richNotes()[0]!;
    const created = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title, content } });
    const id = created.body.note.id;
    const { markdown } = await bodyMarkdown(user, id, title);
    const stale = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: "other" }, headers: { "If-Match": '"v9"' } });
    expect(stale.status).toBe(412);
    const res = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: `${markdown}\n\nA new last line` } });
    expect(res.status).toBe(200);
    expect(res.body.note.content.slice(0, content.length)).toEqual(content);
    expect(res.body.note.content).toHaveLength(content.length + 1);
  });
});
