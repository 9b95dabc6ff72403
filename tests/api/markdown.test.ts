import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { contentToText } from "@/lib/body/content-text";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

// Each construct as written, as the note's Markdown gives it back (its list
// marker and table padding), and the block types it must become.
const ROUND_TRIPS: [string, string, string, string[]][] = [
  ["headings", "# One\n\n## Two\n\n### Three", "# One\n\n## Two\n\n### Three", ["heading", "heading", "heading"]],
  [
    "emphasis and links",
    "Some *italic*, **bold**, ~~struck~~ and `inline code`, and [a link](https://example.com/a?b=1).",
    "Some *italic*, **bold**, ~~struck~~ and `inline code`, and [a link](https://example.com/a?b=1).",
    ["paragraph"],
  ],
  ["bullet lists, nested", "- first\n- second\n  - nested", "* first\n* second\n  * nested", ["bulletListItem", "bulletListItem"]],
  ["numbered lists", "1. one\n2. two\n3. three", "1. one\n2. two\n3. three", ["numberedListItem", "numberedListItem", "numberedListItem"]],
  ["checklists", "- [ ] open\n- [x] done", "* [ ] open\n* [x] done", ["checkListItem", "checkListItem"]],
  ["code blocks", "```ts\nconst answer = 42;\n  indented();\n```", "```ts\nconst answer = 42;\n  indented();\n```", ["codeBlock"]],
  [
    "tables",
    "| Name | Qty |\n| --- | --- |\n| apples | 3 |\n| pears | 10 |",
    "| Name   | Qty |\n| ------ | --- |\n| apples | 3   |\n| pears  | 10  |",
    ["table"],
  ],
];

const MALFORMED = [
  "```\nan unterminated fence",
  "| a |\n|---|\n| 1 | 2 | 3 |",
  "<div><span>unclosed",
  "[a link](",
  "![image](",
  "\u0000\uffff\ud800 stray code points",
  "*".repeat(20_000),
  "[".repeat(20_000),
  ">".repeat(3000) + " nested three thousand deep",
  "<div>".repeat(3000),
  Array.from({ length: 200 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n"),
  "<script>alert(1)</script>",
  "- [ ]",
  "",
];

describe.each(TEST_DB_KINDS)("Markdown in and out (%s)", (kind) => {
  const stack = useApiStack(kind);
  const connect = useMcpClients(() => stack.app.url);

  async function create(user: SeededUser, json: Record<string, unknown>) {
    const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json });
    expect(res.status, res.text).toBe(201);
    return res;
  }

  const markdownOf = (user: SeededUser, id: string) => stack.api(`/api/notes/${id}?format=markdown`, { token: user.token() });

  describe("POST /api/notes with contentMarkdown, then GET as Markdown", () => {
    it.each(ROUND_TRIPS)("keeps %s", async (_name, input, expected, types) => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Round trip", contentMarkdown: input });
      expect((body.note.content as { type: string }[]).map((block) => block.type)).toEqual(types);
      const first = await markdownOf(user, body.note.id);
      expect(first.status).toBe(200);
      expect(first.text).toBe(`# Round trip\n\n${expected}\n`);

      // What comes out goes back in unchanged.
      const again = await create(user, { title: "Round trip", contentMarkdown: expected });
      expect((await markdownOf(user, again.body.note.id)).text).toBe(first.text);
    });

    it("keeps a whole document with every construct together", async () => {
      const user = stack.freshUser();
      const document = ROUND_TRIPS.map(([, , expected]) => expected).join("\n\n");
      const { body } = await create(user, { title: "Everything", contentMarkdown: document });
      expect((await markdownOf(user, body.note.id)).text).toBe(`# Everything\n\n${document}\n`);
    });

    it("derives contentText from the blocks when it is not given, and search finds it", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, {
        title: "Derived",
        contentMarkdown: "# Plan\n\nBuy **oat milk** and [bread](https://example.com)\n\n- [ ] call Ana\n\n| when | what |\n| --- | --- |\n| mon | gym |",
      });
      expect(body.note.contentText).toBe("Plan\nBuy oat milk and bread\ncall Ana\nwhen\twhat\nmon\tgym");
      const search = await stack.api("/api/notes?search=oat%20milk", { token: user.token() });
      expect(search.body.notes.map((n: { id: string }) => n.id)).toEqual([body.note.id]);
    });

    it("keeps a contentText that is given", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Given", contentMarkdown: "**bold** words", contentText: "my own index text" });
      expect(body.note.contentText).toBe("my own index text");
      expect(body.note.content[0].type).toBe("paragraph");
    });

    it("400 Invalid request body for content and contentMarkdown together, and nothing is created", async () => {
      const user = stack.freshUser();
      const res = await stack.api("/api/notes", {
        method: "POST",
        token: user.token(),
        json: { title: "Both", content: [], contentMarkdown: "# both" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "Invalid request body",
        details: { formErrors: [], fieldErrors: { contentMarkdown: ["Give content or contentMarkdown, not both"] } },
      });
      expect((await stack.api("/api/notes", { token: user.token() })).body.total).toBe(0);
    });

    it("400 for contentMarkdown that is not a string or over 100,000 characters", async () => {
      const user = stack.freshUser();
      for (const contentMarkdown of [42, ["# list"], "x".repeat(100_001)]) {
        const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Bad", contentMarkdown } });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe("Invalid request body");
        expect(res.body.details.fieldErrors.contentMarkdown).toHaveLength(1);
      }
    });

    it("never answers malformed Markdown with a 500: a note, a 400 naming contentMarkdown, or a 422 naming the budget", async () => {
      const user = stack.freshUser();
      for (const contentMarkdown of MALFORMED) {
        const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Malformed", contentMarkdown } });
        expect([201, 400, 422], `${JSON.stringify(contentMarkdown.slice(0, 40))}: ${res.text.slice(0, 200)}`).toContain(res.status);
        if (res.status === 422) {
          expect(res.body.error).toMatch(/too expensive to convert/);
          continue;
        }
        if (res.status === 400) {
          expect(res.body.error).toBe("Invalid request body");
          expect(res.body.details.fieldErrors.contentMarkdown).toEqual([expect.any(String)]);
          continue;
        }
        const read = await markdownOf(user, res.body.note.id);
        expect(read.status).toBe(200);
        expect(read.text.startsWith("# Malformed\n")).toBe(true);
      }
      const deep = await stack.api("/api/notes", {
        method: "POST",
        token: user.token(),
        json: { title: "Deep", contentMarkdown: ">".repeat(3000) + " x" },
      });
      // Refused by what converting it costs or produces, not by a pre-check of its shape.
      expect([400, 422], deep.text.slice(0, 200)).toContain(deep.status);
      if (deep.status === 400) expect(deep.body.details.fieldErrors.contentMarkdown).toEqual([expect.any(String)]);
      else expect(deep.body.error).toMatch(/^Markdown is too expensive to convert: over the .* budget per conversion$/);
      // The server is still answering.
      expect((await stack.api("/api/notes", { token: user.token() })).status).toBe(200);
    });
  });

  describe("PATCH /api/notes/{id} with contentMarkdown", () => {
    it("replaces the body and its derived text, bumps the ETag, and honours If-Match", async () => {
      const user = stack.freshUser();
      const created = await create(user, { title: "Patch me", contentMarkdown: "old words" });
      const etag = created.headers.get("etag")!;
      const res = await stack.api(`/api/notes/${created.body.note.id}`, {
        method: "PATCH",
        token: user.token(),
        headers: { "if-match": etag },
        json: { contentMarkdown: "## New\n\n* fresh *words*" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toBe('"v2"');
      expect(res.body.note.contentText).toBe("New\nfresh words");
      expect(res.body.note.content.map((b: { type: string }) => b.type)).toEqual(["heading", "bulletListItem"]);
      expect((await markdownOf(user, created.body.note.id)).text).toBe("# Patch me\n\n## New\n\n* fresh *words*\n");

      const stale = await stack.api(`/api/notes/${created.body.note.id}`, {
        method: "PATCH",
        token: user.token(),
        headers: { "if-match": etag },
        json: { contentMarkdown: "lost?" },
      });
      expect(stale.status).toBe(412);
      expect(stale.body.note.contentText).toBe("New\nfresh words");
    });

    it("400 for content and contentMarkdown together; the note is unchanged", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Keep", contentMarkdown: "kept" });
      const res = await stack.api(`/api/notes/${body.note.id}`, {
        method: "PATCH",
        token: user.token(),
        json: { content: [], contentMarkdown: "x" },
      });
      expect(res.status).toBe(400);
      expect(res.body.details.fieldErrors.contentMarkdown).toEqual(["Give content or contentMarkdown, not both"]);
      expect((await stack.api(`/api/notes/${body.note.id}`, { token: user.token() })).body.note).toEqual(body.note);
    });
  });

  describe("GET /api/notes/{id} as Markdown", () => {
    it("answers Accept: text/markdown and ?format=markdown with text/markdown, the ETag and Vary: Accept", async () => {
      const user = stack.freshUser();
      const created = await create(user, { title: "Formats", contentMarkdown: "Body **text**" });
      const id = created.body.note.id;
      const json = await stack.api(`/api/notes/${id}`, { token: user.token() });
      const expected = "# Formats\n\nBody **text**\n";
      for (const res of [
        await stack.api(`/api/notes/${id}`, { token: user.token(), headers: { accept: "text/markdown" } }),
        await stack.api(`/api/notes/${id}`, { token: user.token(), headers: { accept: "text/html;q=0.9, text/markdown" } }),
        await stack.api(`/api/notes/${id}?format=markdown`, { token: user.token() }),
        await stack.api(`/api/notes/${id}?format=markdown`, { token: user.token(), headers: { accept: "application/json" } }),
      ]) {
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
        expect(res.headers.get("etag")).toBe(json.headers.get("etag"));
        expect(res.headers.get("vary")).toMatch(/accept/i);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(res.text).toBe(expected);
      }
    });

    it("stays JSON without a Markdown preference, for */* and for ?format=json", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Json", contentMarkdown: "x" });
      for (const [query, accept] of [
        ["", undefined],
        ["", "*/*"],
        ["", "application/json"],
        ["", "text/markdown;q=0.5, application/json"],
        ["?format=json", "text/markdown"],
      ] as const) {
        const res = await stack.api(`/api/notes/${body.note.id}${query}`, { token: user.token(), headers: accept ? { accept } : {} });
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(res.body).toEqual({ note: body.note });
      }
    });

    it("400 Invalid query parameters for an unknown format", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Format" });
      const res = await stack.api(`/api/notes/${body.note.id}?format=html`, { token: user.token() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Invalid query parameters", details: expect.objectContaining({ fieldErrors: { format: [expect.any(String)] } }) });
    });

    it("writes the title as a literal one-line heading", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Plan *for* [Q3]_draft  #", content: [] });
      expect((await markdownOf(user, body.note.id)).text).toBe("# Plan \\*for\\* \\[Q3\\]\\_draft \\#\n");
    });

    it("gives the plain text of a body that is not BlockNote JSON, and 404s like JSON", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Odd", content: { any: ["json", 1] }, contentText: "the plain text" });
      const res = await markdownOf(user, body.note.id);
      expect(res.status).toBe(200);
      expect(res.text).toBe("# Odd\n\nthe plain text\n");
      const other = stack.freshUser();
      const foreign = await markdownOf(other, body.note.id);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Note not found" });
    });

    it("renders notes written in the browser editor's JSON", async () => {
      const user = stack.freshUser();
      const content = [
        { id: "h", type: "heading", props: { level: 2 }, content: [{ type: "text", text: "Agenda", styles: {} }], children: [] },
        {
          id: "c",
          type: "checkListItem",
          props: { checked: true },
          content: [{ type: "text", text: "Ship it", styles: { bold: true } }],
          children: [{ id: "n", type: "bulletListItem", content: [{ type: "text", text: "nested", styles: {} }], children: [] }],
        },
      ];
      const { body } = await create(user, { title: "Editor", content });
      expect((await markdownOf(user, body.note.id)).text).toBe("# Editor\n\n## Agenda\n\n* [x] **Ship it**\n  * nested\n");
    });
  });

  describe("a note read as Markdown and written back is the same note", () => {
    /** What an agent does: read the note as Markdown and PATCH it back whole, title line included. */
    async function writeBack(user: SeededUser, id: string, title: string) {
      const read = await markdownOf(user, id);
      expect(read.status).toBe(200);
      expect(read.text.startsWith("# "), read.text).toBe(true);
      const res = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: read.text } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.note.title).toBe(title);
      return { markdown: read.text, note: res.body.note as { content: unknown; contentText: string } };
    }

    it("the title line is the title, not a block: the whole Markdown, or the body alone, writes back as the same note, over REST and MCP", async () => {
      const user = stack.freshUser();
      // A body that begins with a heading repeating the title: a read has the line twice.
      const content = [
        { id: "h", type: "heading", props: { ...props, level: 1, isToggleable: false }, content: [text("Trip *plan*")], children: [] },
        paragraph("p", [text("Pack the tent.")]),
      ];
      const tag = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "travel" } })).body.tag;
      // As the browser saves it: the text derived from the blocks.
      const { body } = await create(user, { title: "Trip *plan*", content, contentText: contentToText(content), tagIds: [tag.id] });
      const id = body.note.id;
      const before = (await stack.api(`/api/notes/${id}`, { token: user.token() })).body.note;
      const same = (note: Record<string, unknown>) => expect({ ...note, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });

      const { markdown, note } = await writeBack(user, id, "Trip *plan*");
      expect(markdown).toBe("# Trip \\*plan\\*\n\n# Trip \\*plan\\*\n\nPack the tent.\n");
      same(note as Record<string, unknown>);
      // The body alone, as the docs once asked: its own heading stays.
      const bodyOnly = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: markdown.slice(markdown.indexOf("\n\n") + 2) } });
      same(bodyOnly.body.note);
      // Over MCP: get_note's Markdown, given back to update_note with its version.
      const client = await connect(user.token());
      const read = await client.callTool({ name: "get_note", arguments: { id } });
      const mcpMarkdown = (read.content as { text: string }[])[0]!.text;
      expect(mcpMarkdown).toBe(markdown);
      const { version } = read.structuredContent as { version: number };
      const written = await client.callTool({ name: "update_note", arguments: { id, ifVersion: version, contentMarkdown: mcpMarkdown } });
      expect(written.isError).toBeFalsy();
      same((written.structuredContent as { note: Record<string, unknown> }).note);
    });

    const props = { backgroundColor: "default", textColor: "default", textAlignment: "left" };
    const text = (value: string, styles: Record<string, unknown> = {}) => ({ type: "text", text: value, styles });
    const paragraph = (id: string, content: unknown[]) => ({ id, type: "paragraph", props, content, children: [] });
    const cell = (value: string) => ({ type: "tableCell", props: { ...props, colspan: 1, rowspan: 1 }, content: value ? [text(value)] : [] });

    it("keeps a table whose columns a person resized, and every block around it", async () => {
      const user = stack.freshUser();
      const content = [
        { id: "h", type: "heading", props: { ...props, level: 2, isToggleable: false }, content: [text("Budget")], children: [] },
        ...Array.from({ length: 12 }, (_, i) => paragraph(`p${i}`, [text(`line ${i}`, i % 2 ? { bold: true } : {})])),
        {
          id: "t",
          type: "table",
          props: { textColor: "default" },
          content: { type: "tableContent", columnWidths: [120, 200], rows: [{ cells: [cell("Item"), cell("Cost")] }, { cells: [cell("Rent"), cell("")] }] },
          children: [],
        },
      ];
      const { body } = await create(user, { title: "Budget", content, contentText: "my own index text" });
      const { markdown, note } = await writeBack(user, body.note.id, "Budget");
      expect(markdown).toContain("| Item | Cost |");
      expect(markdown).toContain("line 11");
      expect(note.content).toEqual(content);
    });

    it("keeps empty paragraphs, hard line breaks and a trailing empty block exactly, ids included", async () => {
      const user = stack.freshUser();
      const content = [paragraph("a", [text("Line one\nline two")]), paragraph("b", []), paragraph("c", [text("after a gap")]), paragraph("d", [])];
      const { body } = await create(user, { title: "Shapes", content });
      const { markdown, note } = await writeBack(user, body.note.id, "Shapes");
      expect(markdown).toBe("# Shapes\n\nLine one<br>line two\n\n<br>\n\nafter a gap\n\n<br>\n");
      expect(note.content).toEqual(content);
    });

    it("carries a block Markdown cannot express, or the editor does not know, as its JSON, and keeps it exactly", async () => {
      const user = stack.freshUser();
      const unknown = { id: "u", type: "definitelyNotABlock", props: {}, content: { evil: true }, children: [] };
      const video = { id: "v", type: "video", props: { backgroundColor: "default", name: "demo", url: "https://example.com/v.mp4", caption: "Demo", showPreview: true, textAlignment: "left" }, children: [] };
      const content = [
        { id: "h", type: "heading", props: { ...props, level: 2, isToggleable: false }, content: [text("Plan")], children: [] },
        paragraph("p1", [text("first para")]),
        unknown,
        video,
        paragraph("p2", [text("second para")]),
      ];
      const { body } = await create(user, { title: "Mixed", content });
      const { markdown, note } = await writeBack(user, body.note.id, "Mixed");
      // Every block the editor knows is still Markdown: nothing falls back to the note's text.
      expect(markdown).toMatch(/^# Mixed\n\n## Plan\n\nfirst para\n\n<!-- notes:block \{.*"definitelyNotABlock".*\} -->\n\n<!-- notes:block \{.*"video".*\} -->\n\nsecond para\n$/);
      expect(note.content).toEqual(content);
      expect(note.contentText).toBe("Plan\nfirst para\ndemo\nDemo\nsecond para");
    });

    it("400 for a block comment whose JSON is broken, naming it; nothing written", async () => {
      const user = stack.freshUser();
      const { body } = await create(user, { title: "Kept", contentMarkdown: "kept" });
      const res = await stack.api(`/api/notes/${body.note.id}`, { method: "PATCH", token: user.token(), json: { contentMarkdown: "<!-- notes:block {not json} -->" } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Invalid request body");
      expect(res.body.details.fieldErrors.contentMarkdown).toEqual([expect.stringContaining("notes:block")]);
      expect((await markdownOf(user, body.note.id)).text).toBe("# Kept\n\nkept\n");
    });
  });
});
