import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLOCK_TYPES, MAX_BLOCK_DEPTH, partialBlockProblem, storedBlockProblem } from "@/lib/body/block-shape";
import { noteSchema } from "@/lib/body/schema";

type Json = Record<string, unknown>;
type PropSpec = { default?: unknown; type?: string; values?: readonly unknown[] };

// Read from the schema, as the validator does, so a block type added to it is generated here too.
const configOf = (type: string) =>
  (noteSchema.blockSpecs as Record<string, { config: { content: "inline" | "table" | "plain" | "none"; propSchema: Record<string, PropSpec> } }>)[type]!.config;
const propKind = (spec: PropSpec) => spec.type ?? typeof spec.default;

const allStored = (blocks: readonly unknown[]) => blocks.map((block, i) => storedBlockProblem(block, `blocks[${i}]`)).filter((problem) => problem !== null);

describe("storedBlockProblem: what the editor and Markdown make", () => {
  it("accepts the editor's own document: every block type at its defaults, set props, nesting, tables with widths and nulls", async () => {
    const { BlockNoteEditor } = await import("@blocknote/core");
    const editor = BlockNoteEditor.create({
      schema: noteSchema,
      initialContent: [
        { type: "heading", props: { level: 3, isToggleable: true }, content: "Heading" },
        { type: "paragraph", content: [{ type: "link", href: "https://example.com", content: "linked" }, " words", { type: "text", text: "b", styles: { bold: true, textColor: "red" } }] },
        { type: "bulletListItem", content: "bullet", children: [{ type: "checkListItem", props: { checked: true }, content: "nested", children: [{ type: "paragraph", content: "deeper" }] }] },
        { type: "numberedListItem", props: { start: 3 }, content: "numbered" },
        { type: "checkListItem", content: "open" },
        { type: "toggleListItem", content: "toggle" },
        { type: "quote", content: "quoted" },
        { type: "codeBlock", props: { language: "javascript" }, content: "let x = 1;\nx++;" },
        {
          type: "table",
          content: {
            type: "tableContent",
            columnWidths: [120, undefined],
            headerRows: 1,
            rows: [
              { cells: [[{ type: "text", text: "a1", styles: { italic: true } }], ["b1"]] },
              { cells: [{ type: "tableCell", content: "a2", props: { backgroundColor: "red" } }, { type: "tableCell", content: "b2" }] },
            ],
          },
        },
        { type: "image", props: { url: "https://example.com/i.png", caption: "caption", previewWidth: 200 } },
        { type: "video", props: { url: "https://example.com/v.mp4" } },
        { type: "audio", props: { url: "https://example.com/a.mp3" } },
        { type: "file", props: { url: "https://example.com/f.pdf", name: "f.pdf" } },
        { type: "divider" },
        { type: "paragraph" },
      ],
    });
    const document = editor.document;
    expect(new Set(document.map((block) => block.type))).toEqual(new Set(BLOCK_TYPES));
    // In memory (undefined content, undefined column widths) and as stored (JSON).
    expect(allStored(document)).toEqual([]);
    expect(allStored(JSON.parse(JSON.stringify(document)))).toEqual([]);
    // A stored block is also one a client may send back.
    expect(document.map((block, i) => partialBlockProblem(block, `blocks[${i}]`)).filter(Boolean)).toEqual([]);
  });

  it("accepts the blocks BlockNote's Markdown parser makes", async () => {
    const markdown = [
      "# Title",
      "Some *italic*, **bold**, ~~struck~~, `code` and a [link](https://example.com).\nA hard break.",
      "- [x] done\n  - nested bullet\n    1. numbered",
      "3. starts at three",
      "> quoted",
      "```ts\nconst x = 1;\n```",
      "| a | b |\n|---|---|\n| 1 | **2** |",
      "![alt](https://example.com/i.png)",
      "---",
      "###### Six",
    ].join("\n\n");
    const [{ BlockNoteEditor }, { JSDOM }] = await Promise.all([import("@blocknote/core"), import("jsdom")]);
    const editor = BlockNoteEditor.create({ schema: noteSchema });
    const { window } = new JSDOM("");
    const scope = globalThis as { window?: unknown; document?: unknown };
    scope.window = window;
    scope.document = window.document;
    try {
      // As stored: through JSON.
      const content: unknown[] = JSON.parse(JSON.stringify(await editor.tryParseMarkdownToBlocks(markdown)));
      expect(new Set(content.map((block) => (block as Json).type))).toEqual(
        new Set(["heading", "paragraph", "checkListItem", "numberedListItem", "quote", "codeBlock", "table", "image", "divider"]),
      );
      expect(allStored(content)).toEqual([]);
    } finally {
      delete scope.window;
      delete scope.document;
    }
  });
});

describe("storedBlockProblem and partialBlockProblem: what they report", () => {
  const paragraph = (extra: Json = {}): Json => ({
    id: "p1",
    type: "paragraph",
    props: { backgroundColor: "default", textColor: "default", textAlignment: "left" },
    content: [{ type: "text", text: "hi", styles: {} }],
    children: [],
    ...extra,
  });

  it.each<[string, unknown, string]>([
    ["an unknown type", paragraph({ type: "definitelyNotABlock" }), 'b.type: unknown block type "definitelyNotABlock"'],
    ["a type that is not a string", paragraph({ type: 3 }), "b.type: must be a string"],
    ["no type", { id: "x", props: {}, content: [], children: [] }, "b.type: missing"],
    ["not an object", "paragraph", "b: must be a block (an object)"],
    ["an unknown field", paragraph({ colour: "red" }), 'b: unknown field "colour"'],
    ["an unknown prop", paragraph({ props: { foo: 1 } }), 'b.props: unknown prop "foo" for a "paragraph" block'],
    ["a heading level out of range", { ...paragraph({ type: "heading" }), props: { level: 7 } }, "b.props.level: must be one of 1, 2, 3, 4, 5, 6"],
    ["an alignment not offered", paragraph({ props: { textAlignment: "middle" } }), 'b.props.textAlignment: must be one of "left", "center", "right", "justify"'],
    ["a boolean prop as a string", { ...paragraph({ type: "checkListItem" }), props: { checked: "yes" } }, "b.props.checked: must be a boolean"],
    ["a number prop as a string", { ...paragraph({ type: "numberedListItem" }), props: { start: "3" } }, "b.props.start: must be a number"],
    ["a string prop as a number", paragraph({ props: { textColor: 3 } }), "b.props.textColor: must be a string"],
    ["content an object", paragraph({ content: { evil: true } }), "b.content: must be a list of inline content"],
    ["inline content of an unknown type", paragraph({ content: [{ type: "mention", text: "x" }] }), 'b.content[0].type: unknown inline content type "mention"'],
    ["an unknown style", paragraph({ content: [{ type: "text", text: "x", styles: { blink: true } }] }), 'b.content[0].styles: unknown style "blink"'],
    ["a boolean style as a string", paragraph({ content: [{ type: "text", text: "x", styles: { bold: "yes" } }] }), "b.content[0].styles.bold: must be a boolean"],
    ["a link without href", paragraph({ content: [{ type: "link", content: [] }] }), "b.content[0].href: missing"],
    ["a link holding a link", paragraph({ content: [{ type: "link", href: "x", content: [{ type: "link", href: "y", content: [] }] }] }), 'b.content[0].content[0].type: must be "text"'],
    ["content on a divider", { id: "d", type: "divider", props: {}, content: [], children: [] }, 'b.content: must be absent: a "divider" block has no content'],
    ["a table with inline content", { id: "t", type: "table", props: {}, content: [], children: [] }, "b.content: must be table content (an object)"],
    ["a table without rows", { id: "t", type: "table", props: {}, content: { type: "tableContent", columnWidths: [], rows: [] }, children: [] }, "b.content.rows: must hold at least one row"],
    [
      "a column width that is not a number",
      { id: "t", type: "table", props: {}, content: { type: "tableContent", columnWidths: ["wide"], rows: [{ cells: [[]] }] }, children: [] },
      "b.content.columnWidths[0]: must be a number or null",
    ],
    [
      "a cell spanning no columns",
      { id: "t", type: "table", props: {}, content: { type: "tableContent", columnWidths: [null], rows: [{ cells: [{ type: "tableCell", props: { colspan: 0 }, content: [] }] }] }, children: [] },
      "b.content.rows[0].cells[0].props.colspan: must be a whole number of 1 or more",
    ],
    ["children not a list", paragraph({ children: {} }), "b.children: must be a list of blocks"],
    ["a bad child, deep", paragraph({ children: [paragraph({ id: "c", children: [paragraph({ id: "g", type: "nope" })] })] }), 'b.children[0].children[0].type: unknown block type "nope"'],
    ["a prop name that is no identifier", paragraph({ props: { "a b": 1 } }), 'b.props: unknown prop "a b" for a "paragraph" block'],
    ["an empty id", paragraph({ id: "" }), "b.id: must be a non-empty string"],
  ])("%s", (_name, block, problem) => {
    expect(storedBlockProblem(block, "b")).toBe(problem);
    expect(partialBlockProblem(block, "b")).toBe(problem);
  });

  it("a stored block has every part; a partial one may leave them out", () => {
    for (const missing of ["id", "props", "content", "children"]) {
      const block = paragraph();
      delete block[missing];
      expect(storedBlockProblem(block, "b")).toBe(`b.${missing}: missing`);
      expect(partialBlockProblem(block, "b")).toBeNull();
    }
    expect(storedBlockProblem({ id: "d", type: "divider", props: {}, children: [] }, "b")).toBeNull();
  });

  it("a partial block may give content as strings, styles left out and props in part, as BlockNote takes them", () => {
    const ok: unknown[] = [
      { type: "paragraph", content: "plain" },
      { type: "paragraph", content: ["a", { type: "text", text: "b" }, { type: "link", href: "https://x", content: "c" }] },
      { type: "heading", props: { level: 2 }, content: "h", children: [{ type: "bulletListItem", content: "child" }] },
      { type: "codeBlock", content: "let x;" },
      { type: "codeBlock", content: ["let ", { type: "text", text: "x", styles: {} }] },
      { type: "table", content: { type: "tableContent", rows: [{ cells: ["a", ["b"], { type: "tableCell", content: "c" }, { type: "tableCell" }] }] } },
      { type: "image", props: { url: "https://example.com/i.png" } },
    ];
    expect(ok.map((block) => partialBlockProblem(block, "b"))).toEqual(ok.map(() => null));
    // The same shorthands are not how blocks are stored.
    expect(storedBlockProblem({ id: "x", type: "paragraph", props: {}, content: "plain", children: [] }, "b")).toBe("b.content: must be a list of inline content");
    expect(storedBlockProblem({ id: "x", type: "paragraph", props: {}, content: [{ type: "text", text: "a" }], children: [] }, "b")).toBe("b.content[0].styles: missing");
  });

  it("a code block's text is plain: no links, and a client may not style it", () => {
    expect(partialBlockProblem({ type: "codeBlock", content: [{ type: "text", text: "x", styles: { bold: true } }] }, "b")).toBe("b.content[0].styles: a code block's text takes no styles");
    expect(partialBlockProblem({ type: "codeBlock", content: [{ type: "link", href: "x", content: [] }] }, "b")).toBe("b.content[0].type: a code block's text holds no links");
    // Stored before code blocks were plain: the editor reads it, dropping the styles.
    expect(storedBlockProblem({ id: "c", type: "codeBlock", props: { language: "text" }, content: [{ type: "text", text: "x", styles: { bold: true } }], children: [] }, "b")).toBeNull();
  });

  it(`stops at ${MAX_BLOCK_DEPTH} levels of nesting, however deep the JSON goes`, () => {
    let block: Json = { type: "paragraph" };
    for (let i = 0; i < 100_000; i += 1) block = { type: "paragraph", children: [block] };
    const problem = partialBlockProblem(block, "b");
    expect(problem).toBe(`b${".children[0]".repeat(MAX_BLOCK_DEPTH)}: blocks nested more than ${MAX_BLOCK_DEPTH} levels deep`);
    let shallow: Json = { type: "paragraph" };
    for (let i = 1; i < MAX_BLOCK_DEPTH; i += 1) shallow = { type: "paragraph", children: [shallow] };
    expect(partialBlockProblem(shallow, "b")).toBeNull();
  });

  it("checks a large body in one pass", () => {
    const text = { type: "text", text: "word ", styles: { bold: true } };
    const blocks = Array.from({ length: 10_000 }, (_, i) => ({ ...paragraph({ id: `p${i}` }), content: Array.from({ length: 20 }, () => text) }));
    const started = performance.now();
    expect(allStored(blocks)).toEqual([]);
    // 200,000 text items: a linear check takes milliseconds; the bound only catches a quadratic one.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

// ---------------------------------------------------------------------------
// Properties: blocks generated from the schema pass; one corrupted field anywhere is reported at its path.

const STYLE_NAMES = Object.keys(noteSchema.styleSchema);
const styleKind = (name: string) => (noteSchema.styleSchema as Record<string, { propSchema: string }>)[name]!.propSchema;

const propValue = (spec: PropSpec): fc.Arbitrary<unknown> => {
  if (spec.values) return fc.constantFrom(...spec.values);
  const kind = propKind(spec);
  if (kind === "boolean") return fc.boolean();
  if (kind === "number") return fc.integer({ min: 0, max: 2000 });
  return fc.string({ maxLength: 6 });
};

const styles = fc.record(Object.fromEntries(STYLE_NAMES.map((name) => [name, styleKind(name) === "boolean" ? fc.boolean() : fc.constantFrom("red", "blue")])), {
  requiredKeys: [],
});
const styledText = (plain: boolean) => fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 6 }), styles: plain ? fc.constant({}) : styles });
const link = fc.record({ type: fc.constant("link"), href: fc.string({ maxLength: 10 }), content: fc.array(styledText(false), { maxLength: 2 }) });
const inline = fc.array(fc.oneof(styledText(false), link), { maxLength: 3 });
const cellProps = fc.record(
  {
    backgroundColor: fc.constantFrom("default", "red"),
    textColor: fc.constantFrom("default", "blue"),
    textAlignment: fc.constantFrom("left", "center", "right", "justify"),
    colspan: fc.integer({ min: 1, max: 3 }),
    rowspan: fc.integer({ min: 1, max: 3 }),
  },
  { requiredKeys: [] },
);
const cell = fc.oneof(fc.record({ type: fc.constant("tableCell"), props: cellProps, content: inline }), inline);
const tableContent = fc.record(
  {
    type: fc.constant("tableContent"),
    columnWidths: fc.array(fc.oneof(fc.constant(null), fc.integer({ min: 20, max: 400 })), { maxLength: 3 }),
    headerRows: fc.nat(2),
    headerCols: fc.nat(2),
    rows: fc.array(fc.record({ cells: fc.array(cell, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ["type", "columnWidths", "rows"] },
);

let counter = 0;
const blockArbitrary = (depth: number): fc.Arbitrary<Json> =>
  fc.constantFrom(...BLOCK_TYPES).chain((type) => {
    const { content, propSchema } = configOf(type);
    const props = fc.record(Object.fromEntries(Object.entries(propSchema).map(([name, spec]) => [name, propValue(spec)])), { requiredKeys: [] });
    const contentArbitrary: fc.Arbitrary<unknown> =
      content === "inline" ? inline : content === "plain" ? fc.array(styledText(true), { maxLength: 2 }) : content === "table" ? tableContent : fc.constant(undefined);
    const children = depth <= 0 ? fc.constant([]) : fc.array(blockArbitrary(depth - 1), { maxLength: 2 });
    return fc.tuple(props, contentArbitrary, children).map(([p, c, kids]) => ({
      id: `block-${(counter += 1)}`,
      type,
      props: p,
      ...(c === undefined ? {} : { content: c }),
      children: kids,
    }));
  });
const blocks = fc.array(blockArbitrary(2), { minLength: 1, maxLength: 3 });

/** One spot of a valid body to corrupt: where it is, and what to put there. */
type Spot = { path: string; corrupt: () => void };

const badPropValue = (spec: PropSpec): unknown => {
  if (spec.values) return typeof spec.values[0] === "number" ? 99 : "nope";
  const kind = propKind(spec);
  return kind === "boolean" ? "yes" : kind === "number" ? "12" : 12;
};

/** Every spot of a body where a single wrong value must be reported, each with the path the report must start with. */
function spotsOf(list: Json[], base: string): Spot[] {
  const spots: Spot[] = [];
  const inlineSpots = (items: Json[], path: string) => {
    items.forEach((item, i) => {
      const at = `${path}[${i}]`;
      if (Array.isArray(item)) return;
      spots.push({ path: `${at}.type`, corrupt: () => (item.type = "sparkle") });
      if (item.type === "text") {
        spots.push({ path: `${at}.text`, corrupt: () => (item.text = 5) });
        spots.push({ path: `${at}.styles`, corrupt: () => (item.styles = "bold") });
        for (const name of Object.keys(item.styles as Json)) spots.push({ path: `${at}.styles.${name}`, corrupt: () => ((item.styles as Json)[name] = 5) });
      } else {
        spots.push({ path: `${at}.href`, corrupt: () => (item.href = null) });
        spots.push({ path: `${at}.content`, corrupt: () => (item.content = { evil: true }) });
        inlineSpots(item.content as Json[], `${at}.content`);
      }
    });
  };
  list.forEach((block, i) => {
    const at = `${base}[${i}]`;
    const { content: kind, propSchema } = configOf(block.type as string);
    spots.push({ path: `${at}.type`, corrupt: () => (block.type = "definitelyNotABlock") });
    spots.push({ path: `${at}.id`, corrupt: () => (block.id = 42) });
    spots.push({ path: `${at}.props`, corrupt: () => ((block.props as Json).foo = 1) });
    for (const name of Object.keys(block.props as Json)) spots.push({ path: `${at}.props.${name}`, corrupt: () => ((block.props as Json)[name] = badPropValue(propSchema[name]!)) });
    spots.push({ path: `${at}.content`, corrupt: () => (block.content = kind === "none" ? [] : { evil: true }) });
    if (kind === "inline" || kind === "plain") inlineSpots(block.content as Json[], `${at}.content`);
    if (kind === "table") {
      const table = block.content as Json;
      spots.push({ path: `${at}.content.rows`, corrupt: () => (table.rows = []) });
      (table.columnWidths as unknown[]).forEach((_, c) => spots.push({ path: `${at}.content.columnWidths[${c}]`, corrupt: () => ((table.columnWidths as unknown[])[c] = "wide") }));
      (table.rows as { cells: unknown[] }[]).forEach((row, r) =>
        row.cells.forEach((cellValue, c) => {
          const cellPath = `${at}.content.rows[${r}].cells[${c}]`;
          if (Array.isArray(cellValue)) return inlineSpots(cellValue as Json[], cellPath);
          const tableCell = cellValue as Json;
          spots.push({ path: `${cellPath}.type`, corrupt: () => (tableCell.type = "cell") });
          for (const name of Object.keys(tableCell.props as Json)) spots.push({ path: `${cellPath}.props.${name}`, corrupt: () => ((tableCell.props as Json)[name] = null) });
          inlineSpots(tableCell.content as Json[], `${cellPath}.content`);
        }),
      );
    }
    spots.push({ path: `${at}.children`, corrupt: () => (block.children = "none") });
    spots.push(...spotsOf(block.children as Json[], `${at}.children`));
  });
  return spots;
}

describe("storedBlockProblem: properties over generated bodies", () => {
  it("passes every body generated from the schema, stored and partial", () => {
    fc.assert(
      fc.property(blocks, (body) => {
        expect(allStored(body)).toEqual([]);
        expect(body.map((block, i) => partialBlockProblem(block, `blocks[${i}]`)).filter(Boolean)).toEqual([]);
      }),
    );
  });

  it("reports one corrupted field anywhere, at its path", () => {
    fc.assert(
      fc.property(
        blocks.chain((body) => {
          const count = spotsOf(body, "blocks").length;
          return fc.tuple(fc.constant(body), fc.nat(count - 1));
        }),
        ([body, pick]) => {
          const copy = structuredClone(body);
          const spot = spotsOf(copy, "blocks")[pick]!;
          spot.corrupt();
          const problems = allStored(copy);
          expect(problems).toHaveLength(1);
          expect(problems[0]!.startsWith(`${spot.path}: `), `${problems[0]} should be at ${spot.path}`).toBe(true);
          expect(copy.map((block, i) => partialBlockProblem(block, `blocks[${i}]`)).filter(Boolean)).toEqual(problems);
        },
      ),
      { numRuns: 500 },
    );
  });
});
