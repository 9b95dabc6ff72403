import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack } from "@/tests/helpers/notes-app";

type ToolResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const TOOLS = [
  "search_notes",
  "get_note",
  "create_note",
  "update_note",
  "edit_note",
  "delete_note",
  "list_revisions",
  "get_revision",
  "restore_revision",
  "list_trash",
  "restore_note",
  "delete_note_forever",
  "list_tags",
  "create_tag",
  "rename_tag",
  "delete_tag",
  "recent_changes",
  "upload_attachment",
];

/** A REST list page as search_notes's full answer has it: each note with its version. */
const withVersions = (page: { notes: object[] }, versions: number[]) => ({ ...page, notes: page.notes.map((note, i) => ({ ...note, version: versions[i] })) });

describe.each(TEST_DB_KINDS)("MCP endpoint /api/mcp (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 40 });
  const connect = useMcpClients(() => stack.app.url);


  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    return (await client.callTool({ name, arguments: args })) as ToolResult;
  }

  function ok(result: ToolResult): Record<string, any> {
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    return result.structuredContent!;
  }

  it("lists every tool, each described by the REST schemas it validates with", async () => {
    const client = await connect(stack.freshUser().token());
    expect(client.getServerVersion()).toMatchObject({ name: "notes" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const create = byName.create_note!.inputSchema as Record<string, any>;
    expect(create.required).toEqual(["title"]);
    expect(create.properties.title).toMatchObject({ type: "string", minLength: 1, maxLength: 500 });
    expect(Object.keys(create.properties)).toEqual(["title", "content", "contentMarkdown", "contentText", "tagIds", "pinned"]);
    const update = byName.update_note!.inputSchema as Record<string, any>;
    expect(update.required).toEqual(["id"]);
    expect(update.properties.ifVersion).toMatchObject({ type: "integer" });
    expect(update.properties).toHaveProperty("etag");
    expect(update.properties).toHaveProperty("contentMarkdown");
    const search = byName.search_notes!.inputSchema as Record<string, any>;
    expect(search.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 500 });
    // Booleans are booleans, in every tool (a query string's "true"/"false" is the REST form of one).
    expect(search.properties.highlight).toMatchObject({ type: "boolean" });
    expect(search.properties.pinned).toMatchObject({ type: "boolean" });
    expect(JSON.stringify(tools.map((tool) => tool.inputSchema))).not.toContain('["true","false"]');
    expect(byName.get_note!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.delete_note!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.delete_tag!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.list_trash!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.delete_note_forever!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect((byName.restore_note!.inputSchema as Record<string, any>).required).toEqual(["id"]);
    expect((byName.rename_tag!.inputSchema as Record<string, any>).required).toEqual(["id", "name"]);
  });

  it("search_notes ranks and highlights like GET /api/notes", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    ok(await call(client, "create_note", { title: "Later", contentMarkdown: "a note about *capybaras*" }));
    ok(await call(client, "create_note", { title: "Capybara facts", contentMarkdown: "big rodents" }));
    const found = ok(await call(client, "search_notes", { search: "CAPYBARA", sort: "relevance", highlight: true, full: true }));
    const rest = await stack.api("/api/notes?search=CAPYBARA&sort=relevance&highlight=true", { token: user.token() });
    expect(found).toEqual(withVersions(rest.body, [1, 1]));
    expect(found.notes.map((note: { title: string }) => note.title)).toEqual(["Capybara facts", "Later"]);
    expect(found.notes[1].snippet).toBe("a note about <mark>capybara</mark>s");
    // Compact (the default): the same notes in the same order, with the same snippets.
    const compact = ok(await call(client, "search_notes", { search: "CAPYBARA", sort: "relevance" }));
    expect(compact.notes.map((note: { snippet: string }) => note.snippet)).toEqual(rest.body.notes.map((note: { snippet: string }) => note.snippet));
  });

  it("search_notes answers compact by default: what an agent needs to pick a note, a few hundred bytes each whatever the note's size", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { id: tagId } = ok(await call(client, "create_tag", { name: "work" })).tag;
    const paragraph = "The quarterly plan covers hiring, the budget review and the office move; each item has an owner and a date. ";
    for (let i = 0; i < 5; i += 1) {
      ok(await call(client, "create_note", { title: `Plan ${i}`, contentMarkdown: Array.from({ length: 40 }, () => paragraph).join("\n\n"), tagIds: [tagId], pinned: i === 0 }));
    }
    const compact = ok(await call(client, "search_notes", { search: "budget" }));
    const full = ok(await call(client, "search_notes", { search: "budget", full: true }));
    expect(compact.total).toBe(5);
    expect(compact.notes.map((note: { id: string }) => note.id)).toEqual(full.notes.map((note: { id: string }) => note.id));
    const [first] = compact.notes;
    expect(Object.keys(first)).toEqual(["id", "title", "snippet", "tags", "pinned", "version", "createdAt", "updatedAt"]);
    expect(first).toMatchObject({ title: "Plan 4", tags: [{ id: tagId, name: "work" }], pinned: false, version: 1 });
    expect(first.snippet).toContain("<mark>budget</mark>");
    // Booleans and numbers as JSON has them.
    expect(typeof first.pinned).toBe("boolean");
    // Without a search, the snippet is the text's start.
    expect(ok(await call(client, "search_notes", { limit: 1 })).notes[0].snippet).toMatch(/^The quarterly plan covers/);
    const bytesPerNote = (page: Record<string, any>) => Buffer.byteLength(JSON.stringify(page.notes)) / page.notes.length;
    console.log(`[measure] search_notes bytes per note: compact ${Math.round(bytesPerNote(compact))}, full ${Math.round(bytesPerNote(full))}`);
    expect(bytesPerNote(compact)).toBeLessThan(600);
    expect(bytesPerNote(full) / bytesPerNote(compact)).toBeGreaterThan(20);
  });

  it("create_note, get_note, search_notes: the same notes and shapes as the REST API", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const created = ok(await call(client, "create_note", { title: "From an agent", contentMarkdown: "# Plan\n\n* [ ] write *tests*" }));
    expect(created).toMatchObject({ version: 1, etag: '"v1"' });
    expect(created.note.contentText).toBe("Plan\nwrite tests");

    const rest = await stack.api(`/api/notes/${created.note.id}`, { token: user.token() });
    expect(rest.body.note).toEqual(created.note);

    const markdown = await call(client, "get_note", { id: created.note.id });
    const restMarkdown = await stack.api(`/api/notes/${created.note.id}?format=markdown`, { token: user.token() });
    expect(markdown.content[0]!.text).toBe(restMarkdown.text);
    expect(markdown.content[0]!.text).toBe("# From an agent\n\n# Plan\n\n* [ ] write *tests*\n");
    expect(JSON.parse(markdown.content[1]!.text)).toMatchObject({ id: created.note.id, version: 1, etag: '"v1"' });
    expect(markdown.structuredContent).toMatchObject({ version: 1, markdown: restMarkdown.text });

    const json = ok(await call(client, "get_note", { id: created.note.id, format: "json" }));
    expect(json).toEqual({ note: rest.body.note, version: 1, etag: '"v1"' });

    const found = ok(await call(client, "search_notes", { search: "write tests", limit: 10, full: true }));
    const restFound = await stack.api("/api/notes?search=write%20tests&limit=10", { token: user.token() });
    expect(found).toEqual(withVersions(restFound.body, [1]));
    expect(found.total).toBe(1);
  });

  it("update_note honours ifVersion and etag; a stale one fails with the current note and writes nothing", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { note } = ok(await call(client, "create_note", { title: "Shared", contentText: "original" }));

    const updated = ok(await call(client, "update_note", { id: note.id, ifVersion: 1, contentMarkdown: "agent **edit**" }));
    expect(updated).toMatchObject({ version: 2, etag: '"v2"' });
    expect(updated.note.contentText).toBe("agent edit");

    // A person saves in the browser meanwhile.
    const person = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { title: "Person's title" } });

    const stale = await call(client, "update_note", { id: note.id, ifVersion: 2, title: "Agent's title" });
    expect(stale.isError).toBe(true);
    expect(stale.content[0]!.text).toBe("Note was modified");
    expect(stale.structuredContent).toEqual({ status: 412, error: "Note was modified", note: person.body.note, version: 3, etag: '"v3"' });
    expect(JSON.parse(stale.content[1]!.text)).toEqual(stale.structuredContent);
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note).toEqual(person.body.note);

    expect(ok(await call(client, "update_note", { id: note.id, etag: '"v3"', title: "Merged" })).version).toBe(4);
    expect(ok(await call(client, "update_note", { id: note.id, etag: "*", title: "Any" })).version).toBe(5);
    expect(ok(await call(client, "update_note", { id: note.id, title: "Unconditional" })).version).toBe(6);
    const garbage = await call(client, "update_note", { id: note.id, etag: "garbage", title: "No" });
    expect(garbage.structuredContent).toMatchObject({ status: 412, error: "Note was modified" });
  });

  it("edit_note applies operations like POST /api/notes/{id}/edits; get_note format blocks gives the ids to address", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "edit_note")!;
    for (const op of ["append", "prepend", "replace_text", "replace_section", "insert_before_section", "insert_after_section", "update_block", "move_block", "delete_block", "set_title", "add_tags", "remove_tags"]) {
      expect(tool.description).toContain(op);
    }
    expect((tool.inputSchema as Record<string, any>).required).toEqual(["id", "operations"]);

    const { note } = ok(await call(client, "create_note", { title: "Agenda", contentMarkdown: "## Today\n\nstandup at nine\n\n## Later\n\nreview" }));
    const outline = ok(await call(client, "get_note", { id: note.id, format: "blocks" }));
    expect(outline).toMatchObject({ note: { id: note.id, title: "Agenda" }, version: 1, etag: '"v1"' });
    expect(outline.blocks.map((block: { text: string }) => block.text)).toEqual(["Today", "standup at nine", "Later", "review"]);
    const restOutline = await stack.api(`/api/notes/${note.id}?format=blocks`, { token: user.token() });
    expect(restOutline.body.blocks).toEqual(outline.blocks);

    const edited = ok(
      await call(client, "edit_note", {
        id: note.id,
        operations: [
          { op: "replace_text", find: "nine", replace: "ten" },
          { op: "delete_block", blockId: outline.blocks[3].id },
          { op: "insert_after_section", heading: "Later", markdown: "- [ ] plan" },
        ],
      }),
    );
    expect(edited).toMatchObject({ version: 2, etag: '"v2"' });
    expect(edited.note.contentText).toBe("Today\nstandup at ten\nLater\nplan");
    expect(edited.note.content.slice(0, 3).map((block: { id: string }) => block.id)).toEqual(outline.blocks.slice(0, 3).map((block: { id: string }) => block.id));

    const mismatch = await call(client, "edit_note", { id: note.id, operations: [{ op: "replace_text", find: "zebra", replace: "x" }] });
    expect(mismatch.isError).toBe(true);
    expect(mismatch.structuredContent).toEqual({
      status: 409,
      error: "operations[0] (replace_text): expected 1 match of the text, found 0; nothing was written",
      operation: 0,
      expectedCount: 1,
      foundCount: 0,
    });
    const stale = await call(client, "edit_note", { id: note.id, ifVersion: 1, operations: [{ op: "set_title", title: "No" }] });
    expect(stale.structuredContent).toMatchObject({ status: 412, error: "Note was modified", version: 2 });
    const invalid = await call(client, "edit_note", { id: note.id, operations: [] });
    expect(invalid.structuredContent).toMatchObject({ status: 400, error: "Invalid request body" });
    const unknownType = await call(client, "edit_note", { id: note.id, operations: [{ op: "append", blocks: [{ type: "definitelyNotABlock" }] }] });
    expect(unknownType.structuredContent).toEqual({
      status: 400,
      error: "Invalid request body",
      details: { formErrors: [], fieldErrors: { "operations.0.blocks": ['operations[0] (append): blocks[0].type: unknown block type "definitelyNotABlock"'] } },
    });
    const stranger = await connect(stack.freshUser().token());
    expect((await call(stranger, "edit_note", { id: note.id, operations: [{ op: "set_title", title: "Mine" }] })).structuredContent).toEqual({
      status: 404,
      error: "Note not found",
    });
  });

  it("delete_note: a stale version keeps the note; the current one deletes it; then 404s", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { note } = ok(await call(client, "create_note", { title: "Doomed" }));
    await call(client, "update_note", { id: note.id, title: "Edited" });
    const stale = await call(client, "delete_note", { id: note.id, ifVersion: 1 });
    expect(stale.structuredContent).toMatchObject({ status: 412, error: "Note was modified", version: 2 });
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).status).toBe(200);

    expect(ok(await call(client, "delete_note", { id: note.id, ifVersion: 2 }))).toEqual({ deleted: note.id });
    for (const [name, args] of [
      ["get_note", { id: note.id }],
      ["update_note", { id: note.id, title: "x" }],
      ["delete_note", { id: note.id }],
    ] as const) {
      const gone = await call(client, name, args);
      expect(gone.isError).toBe(true);
      expect(gone.content).toEqual([{ type: "text", text: "Note not found" }]);
      expect(gone.structuredContent).toEqual({ status: 404, error: "Note not found" });
    }
  });

  it("list_tags and create_tag; a duplicate name fails with the REST text", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { tag } = ok(await call(client, "create_tag", { name: "  research  " }));
    expect(tag.name).toBe("research");
    const duplicate = await call(client, "create_tag", { name: "Research" });
    expect(duplicate.content[0]!.text).toBe("A tag with this name already exists");
    expect(duplicate.structuredContent).toEqual({ status: 409, error: "A tag with this name already exists" });
    const listed = ok(await call(client, "list_tags"));
    expect(listed).toEqual((await stack.api("/api/tags", { token: user.token() })).body);

    const { note } = ok(await call(client, "create_note", { title: "Tagged", tagIds: [tag.id] }));
    expect(note.tags).toEqual([tag]);
    expect(ok(await call(client, "search_notes", { tagId: tag.id })).total).toBe(1);
  });

  it("pinned: create_note and update_note set it, search_notes filters by it with exact totals, get_note reports it", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { note: pinned } = ok(await call(client, "create_note", { title: "Pinned plan", pinned: true }));
    const { note: plain, version } = ok(await call(client, "create_note", { title: "Plain plan" }));
    expect(pinned.pinned).toBe(true);
    expect(plain.pinned).toBe(false);

    const updated = ok(await call(client, "update_note", { id: plain.id, pinned: true, ifVersion: version }));
    expect(updated.note.pinned).toBe(true);
    expect(updated.version).toBe(version + 1);
    const stale = await call(client, "update_note", { id: plain.id, pinned: false, ifVersion: version });
    expect(stale.structuredContent).toMatchObject({ status: 412, error: "Note was modified" });
    ok(await call(client, "update_note", { id: pinned.id, pinned: false }));

    const onlyPinned = ok(await call(client, "search_notes", { pinned: true, search: "plan" }));
    expect(onlyPinned.notes.map((n: { id: string }) => n.id)).toEqual([plain.id]);
    expect(onlyPinned.total).toBe(1);
    const others = ok(await call(client, "search_notes", { pinned: "false" }));
    expect(others.notes.map((n: { id: string }) => n.id)).toEqual([pinned.id]);
    expect(others.total).toBe(1);
    expect(ok(await call(client, "search_notes", { pinned: false, full: true }))).toEqual(
      withVersions((await stack.api("/api/notes?pinned=false", { token: user.token() })).body, [others.notes[0].version]),
    );

    expect(ok(await call(client, "get_note", { id: plain.id }))).toMatchObject({ pinned: true });
    expect(ok(await call(client, "get_note", { id: pinned.id, format: "json" })).note.pinned).toBe(false);

    const bad = await call(client, "search_notes", { pinned: "yes" });
    expect(bad.structuredContent).toMatchObject({ status: 400, error: "Invalid query parameters" });
    const badPin = await call(client, "update_note", { id: plain.id, pinned: "yes" });
    expect(badPin.structuredContent).toMatchObject({ status: 400, error: "Invalid request body" });
  });

  it("rename_tag and delete_tag: the REST rules, texts and effects", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { tag } = ok(await call(client, "create_tag", { name: "draft" }));
    const { tag: other } = ok(await call(client, "create_tag", { name: "done" }));
    const { note } = ok(await call(client, "create_note", { title: "Tagged", tagIds: [tag.id] }));

    const renamed = ok(await call(client, "rename_tag", { id: tag.id, name: "  Final  " }));
    expect(renamed).toEqual({ tag: { id: tag.id, name: "Final", createdAt: tag.createdAt } });
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note.tags).toEqual([renamed.tag]);

    const duplicate = await call(client, "rename_tag", { id: other.id, name: "FINAL" });
    expect(duplicate.isError).toBe(true);
    expect(duplicate.structuredContent).toEqual({ status: 409, error: "A tag with this name already exists" });
    const invalid = await call(client, "rename_tag", { id: tag.id, name: "" });
    expect(invalid.structuredContent).toMatchObject({ status: 400, error: "Invalid request body" });
    expect(invalid.structuredContent!.details.fieldErrors).toHaveProperty("name");
    expect((await call(client, "rename_tag", { id: "nope", name: "x" })).structuredContent).toEqual({ status: 400, error: "Invalid tag id" });

    // Another user's tag is not found, for either tool, and stays as it was.
    const stranger = await connect(stack.freshUser().token());
    for (const [name, args] of [
      ["rename_tag", { id: tag.id, name: "Stolen" }],
      ["delete_tag", { id: tag.id }],
    ] as const) {
      expect((await call(stranger, name, args)).structuredContent).toEqual({ status: 404, error: "Tag not found" });
    }

    expect(ok(await call(client, "delete_tag", { id: tag.id }))).toEqual({ deleted: tag.id });
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note.tags).toEqual([]);
    // The note lost a tag: its newest revision says the MCP agent did it.
    const revisions = (await stack.api(`/api/notes/${note.id}/revisions`, { token: user.token() })).body.revisions;
    expect(revisions[0].author.kind).toBe("mcp");
    expect(ok(await call(client, "list_tags"))).toEqual({ tags: [other] });
    expect((await call(client, "delete_tag", { id: tag.id })).structuredContent).toEqual({ status: 404, error: "Tag not found" });
  });

  it("delete_note, list_trash, restore_note, delete_note_forever: the trash of the REST API", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { note, version } = ok(await call(client, "create_note", { title: "Trash me", contentMarkdown: "Some **bold** words" }));
    expect(ok(await call(client, "delete_note", { id: note.id }))).toEqual({ deleted: note.id });
    expect((await call(client, "get_note", { id: note.id })).structuredContent).toEqual({ status: 404, error: "Note not found" });

    const trash = ok(await call(client, "list_trash", { limit: 10 }));
    expect(trash.total).toBe(1);
    expect(trash.notes).toEqual([{ ...note, deletedAt: expect.any(String), expiresAt: expect.any(String) }]);
    expect((await stack.api("/api/trash", { token: user.token() })).body).toEqual(trash);

    const stranger = await connect(stack.freshUser().token());
    for (const name of ["restore_note", "delete_note_forever"]) {
      expect((await call(stranger, name, { id: note.id })).structuredContent).toEqual({ status: 404, error: "Note not found in the trash" });
    }
    expect(ok(await call(stranger, "list_trash"))).toEqual({ notes: [], total: 0 });

    expect(ok(await call(client, "restore_note", { id: note.id }))).toEqual({ note, version, etag: `"v${version}"` });
    expect(ok(await call(client, "get_note", { id: note.id })).markdown).toContain("Some **bold** words");
    expect((await call(client, "restore_note", { id: note.id })).structuredContent).toEqual({ status: 404, error: "Note not found in the trash" });

    ok(await call(client, "delete_note", { id: note.id }));
    expect(ok(await call(client, "delete_note_forever", { id: note.id }))).toEqual({ deleted: note.id });
    expect(ok(await call(client, "list_trash"))).toEqual({ notes: [], total: 0 });
    expect((await call(client, "delete_note_forever", { id: note.id })).structuredContent).toEqual({ status: 404, error: "Note not found in the trash" });
    expect((await call(client, "list_trash", { limit: 0 })).structuredContent).toMatchObject({ status: 400, error: "Invalid query parameters" });
    expect((await call(client, "restore_note", { id: "nope" })).structuredContent).toEqual({ status: 400, error: "Invalid note id" });
  });

  it("invalid arguments fail with the REST texts and details, never reaching the data", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const cases: [string, Record<string, unknown>, string, string?][] = [
      ["create_note", { title: "" }, "Invalid request body", "title"],
      ["create_note", {}, "Invalid request body", "title"],
      ["create_note", { title: "Both", content: [], contentMarkdown: "x" }, "Invalid request body", "contentMarkdown"],
      ["create_note", { title: "Deep", content: JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`) }, "Invalid request body", "content"],
      ["update_note", { id: "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10" }, "Invalid request body"],
      ["update_note", { id: "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", title: "x", ifVersion: 1, etag: '"v1"' }, "Invalid request body", "etag"],
      ["update_note", { id: "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", title: "x", ifVersion: "one" }, "Invalid request body", "ifVersion"],
      ["get_note", { id: "nope" }, "Invalid note id"],
      ["get_note", {}, "Invalid note id"],
      ["get_note", { id: "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", format: "html" }, "Invalid query parameters", "format"],
      ["search_notes", { limit: 0 }, "Invalid query parameters", "limit"],
      ["search_notes", { tagId: "not-a-uuid" }, "Invalid query parameters", "tagId"],
      // As REST refuses %00: no PostgreSQL text holds a NUL.
      ["search_notes", { search: "a\u0000" }, "Invalid query parameters", "search"],
      ["search_notes", { search: "\ud800" }, "Invalid query parameters", "search"],
      ["list_trash", { cursor: "\u0000" }, "Invalid query parameters", "cursor"],
      ["create_tag", { name: "" }, "Invalid request body", "name"],
    ];
    for (const [name, args, error, field] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(result.content[0]!.text).toBe(error);
      expect(result.structuredContent).toMatchObject({ status: 400, error });
      if (field) expect(result.structuredContent!.details.fieldErrors).toHaveProperty(field);
    }
    expect((await stack.api("/api/notes", { token: user.token() })).body.total).toBe(0);
  });

  it("an argument a tool does not take fails the call, naming it and those the tool takes, and nothing is read or written", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const misspelt = await call(client, "search_notes", { serach: "plan", tagid: "x" });
    expect(misspelt.isError).toBe(true);
    const takes = "search, sort, highlight, tagId, pinned, limit, cursor, offset, full";
    expect(misspelt.content[0]!.text).toBe(`search_notes does not take "serach", "tagid"; it takes ${takes}`);
    expect(misspelt.structuredContent).toMatchObject({
      status: 400,
      details: { formErrors: [], fieldErrors: { serach: [`Unknown argument; accepted: ${takes}`], tagid: [`Unknown argument; accepted: ${takes}`] } },
    });
    const create = await call(client, "create_note", { title: "Kept out", tags: ["x"] });
    expect(create.content[0]!.text).toBe('create_note does not take "tags"; it takes title, content, contentMarkdown, contentText, tagIds, pinned');
    expect((await call(client, "list_tags", { all: true })).content[0]!.text).toBe('list_tags does not take "all"; it takes no arguments');
    expect((await stack.api("/api/notes", { token: user.token() })).body.total).toBe(0);
  });

  it("each note is a resource, note://{id}, read as its Markdown; the recent notes are listed; another user's is not found", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: "note://{id}", name: "note", mimeType: "text/markdown" })]);
    const older = ok(await call(client, "create_note", { title: "Older", contentMarkdown: "first" })).note;
    const newer = ok(await call(client, "create_note", { title: "Newer", contentMarkdown: "- [ ] second" })).note;
    const { resources } = await client.listResources();
    expect(resources.map(({ uri, name, mimeType }) => ({ uri, name, mimeType }))).toEqual([
      { uri: `note://${newer.id}`, name: "Newer", mimeType: "text/markdown" },
      { uri: `note://${older.id}`, name: "Older", mimeType: "text/markdown" },
    ]);
    const read = await client.readResource({ uri: `note://${newer.id}` });
    const markdown = (await stack.api(`/api/notes/${newer.id}?format=markdown`, { token: user.token() })).text;
    expect(read.contents).toEqual([{ uri: `note://${newer.id}`, mimeType: "text/markdown", text: markdown }]);
    expect(markdown).toBe("# Newer\n\n* [ ] second\n");
    // The token's user only, and clear failures.
    const stranger = await connect(stack.freshUser().token());
    expect((await stranger.listResources()).resources).toEqual([]);
    await expect(stranger.readResource({ uri: `note://${newer.id}` })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("Note not found") });
    await expect(client.readResource({ uri: "note://not-an-id" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Invalid note id") });
  });

  it("acts only for the token's user: another user's note is not found", async () => {
    const owner = stack.freshUser();
    const other = stack.freshUser();
    const { note } = ok(await call(await connect(owner.token()), "create_note", { title: "Private" }));
    const client = await connect(other.token());
    for (const [name, args] of [
      ["get_note", { id: note.id }],
      ["update_note", { id: note.id, title: "Hijack" }],
      ["delete_note", { id: note.id }],
    ] as const) {
      expect((await call(client, name, args)).content[0]!.text).toBe("Note not found");
    }
    expect(ok(await call(client, "search_notes")).total).toBe(0);
    expect((await stack.api(`/api/notes/${note.id}`, { token: owner.token() })).body.note.title).toBe("Private");
  });

  describe("authentication: the REST failures, before the MCP layer", () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const mcpHeaders = { accept: "application/json, text/event-stream" };

    async function connectFails(token: string | undefined): Promise<StreamableHTTPError> {
      const error = await connect(token).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(StreamableHTTPError);
      return error as StreamableHTTPError;
    }

    it("missing token: 401 Missing X-Session-Token header, without calling the identity service", async () => {
      const before = stack.identity.calls;
      const error = await connectFails(undefined);
      expect(error.code).toBe(401);
      expect(error.message).toContain(JSON.stringify({ error: "Missing X-Session-Token header" }));
      const raw = await stack.api("/api/mcp", { method: "POST", json: initialize, headers: mcpHeaders });
      expect(raw.status).toBe(401);
      expect(raw.body).toEqual({ error: "Missing X-Session-Token header" });
      expect(stack.identity.calls).toBe(before);
    });

    it("invalid token: 401 Invalid session token", async () => {
      const error = await connectFails("st_forged");
      expect(error.code).toBe(401);
      expect(error.message).toContain(JSON.stringify({ error: "Invalid session token: Invalid or expired session token" }));
      const raw = await stack.api("/api/mcp", { method: "POST", token: "st_forged", json: initialize, headers: mcpHeaders });
      expect(raw.status).toBe(401);
      expect(raw.body).toEqual({ error: "Invalid session token: Invalid or expired session token" });
    });

    it("unknown user: 401 User not found, with the email", async () => {
      const body = { error: `User not found — sign up at ${stack.app.url} first`, email: "stranger@example.com" };
      const error = await connectFails(stack.identity.tokenFor("stranger@example.com"));
      expect(error.code).toBe(401);
      expect(error.message).toContain(JSON.stringify(body));
      const raw = await stack.api("/api/mcp", {
        method: "POST",
        token: stack.identity.tokenFor("stranger@example.com"),
        json: initialize,
        headers: mcpHeaders,
      });
      expect(raw.status).toBe(401);
      expect(raw.body).toEqual(body);
      expect(raw.headers.get("cache-control")).toBe("no-store");
    });

    it("a session that loses its token mid-way fails the next call with the same 401", async () => {
      const user = stack.freshUser();
      let token = user.token();
      const client = new Client({ name: "notes-tests", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", stack.app.url), {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), "x-session-token": token } }),
      });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
        token = "st_expired";
        await expect(client.listTools()).rejects.toMatchObject({ code: 401 });
      } finally {
        await client.close();
      }
    });
  });

  describe("how MCP clients reach it", () => {
    const accept = { accept: "application/json, text/event-stream" };
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

    it("takes the session token as Authorization: Bearer, as MCP clients send one", async () => {
      const user = stack.freshUser();
      const client = new Client({ name: "notes-tests", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", stack.app.url), { requestInit: { headers: { authorization: `Bearer ${user.token()}` } } });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      } finally {
        await client.close();
      }
      const forged = await stack.api("/api/mcp", { method: "POST", json: initialize, headers: { ...accept, authorization: "Bearer st_forged" } });
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual({ error: "Invalid session token: Invalid or expired session token" });
      // Only the MCP endpoint: REST keeps the contract's header.
      const rest = await stack.api("/api/notes", { headers: { authorization: `Bearer ${user.token()}` } });
      expect(rest.status).toBe(401);
      expect(rest.body).toEqual({ error: "Missing X-Session-Token header" });
    });

    it("refuses a page of another origin before anything else (a rebound DNS name), and answers the app's own", async () => {
      const before = stack.identity.calls;
      const token = stack.freshUser().token();
      const evil = await stack.api("/api/mcp", { method: "POST", token, json: initialize, headers: { ...accept, origin: "http://evil.example.com" } });
      expect(evil.status).toBe(403);
      expect(evil.body).toEqual({ error: "Cross-origin request refused" });
      expect(stack.identity.calls).toBe(before);
      const own = await stack.api("/api/mcp", { method: "POST", token, json: initialize, headers: { ...accept, origin: new URL(stack.app.url).origin } });
      expect(own.status).toBe(200);
    });

    it("refuses a request addressed to another host than APP_URL's, with or without an Origin", async () => {
      const before = stack.identity.calls;
      const token = stack.freshUser().token();
      for (const headers of [{ host: "evil.example.com" }, { host: "evil.example.com", origin: "http://evil.example.com" }] as Record<string, string>[]) {
        const res = await stack.api("/api/mcp", { method: "POST", token, json: initialize, headers: { ...accept, ...headers } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "Cross-origin request refused" });
      }
      expect(stack.identity.calls).toBe(before);
      const own = await stack.api("/api/mcp", { method: "POST", token, json: initialize, headers: { ...accept, host: new URL(stack.app.url).host } });
      expect(own.status).toBe(200);
    });

    it("declares what it can deliver: no list_changed from a stateless server; tool arguments closed as the tools are", async () => {
      const res = await stack.api("/api/mcp", { method: "POST", token: stack.freshUser().token(), json: initialize, headers: accept });
      expect(res.body.result.capabilities).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
      const client = await connect(stack.freshUser().token());
      const { tools } = await client.listTools();
      for (const tool of tools) expect(tool.inputSchema, tool.name).toMatchObject({ type: "object", additionalProperties: false });
    });
  });

  describe("the transport's own answers, as the OpenAPI document declares them", () => {
    const accept = { accept: "application/json, text/event-stream" };
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

    it("a batch is answered with an array of responses, one per request", async () => {
      const res = await stack.api("/api/mcp", { method: "POST", token: stack.freshUser().token(), json: [list(1), list(2)], headers: accept });
      expect(res.status).toBe(200);
      expect(res.body.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
      expect(res.body[0].result.tools).toHaveLength(TOOLS.length);
    });

    it("a notification alone is a 202 with no body", async () => {
      const res = await stack.api("/api/mcp", {
        method: "POST",
        token: stack.freshUser().token(),
        json: { jsonrpc: "2.0", method: "notifications/initialized" },
        headers: accept,
      });
      expect(res.status).toBe(202);
      expect(res.text).toBe("");
    });

    it.each([
      [406, "without text/event-stream in Accept", { json: list(1), headers: { accept: "application/json" } }, -32000],
      [415, "with a non-JSON Content-Type", { raw: JSON.stringify(list(1)), headers: { ...accept, "content-type": "text/plain" } }, -32000],
      [400, "with a body that is not JSON", { raw: "{", headers: { ...accept, "content-type": "application/json" } }, -32700],
      [400, "with JSON that is no JSON-RPC message", { json: { hello: "world" }, headers: accept }, -32700],
    ] as const)("%i %s, as a JSON-RPC error", async (status, _what, request, code) => {
      const res = await stack.api("/api/mcp", { method: "POST", token: stack.freshUser().token(), ...request });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code, message: expect.any(String) } });
    });
  });

  it("answers GET and DELETE with a JSON 405 (stateless: no stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await stack.api("/api/mcp", { method, token: stack.freshUser().token(), headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.body.error).toContain(method);
    }
  });
});
