import { describe, expect, it } from "vitest";
import { contentToText, previewText } from "@/lib/body/content-text";

const text = (value: string, styles: Record<string, unknown> = {}) => ({ type: "text", text: value, styles });
const block = (type: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  id: `${type}-${Math.random().toString(36).slice(2)}`,
  type,
  props: { backgroundColor: "default", textColor: "default", textAlignment: "left" },
  content,
  children: [],
  ...extra,
});

describe("contentToText", () => {
  it("paragraphs and headings: styled text runs joined, one line per block", () => {
    const doc = [
      block("heading", [text("Trip "), text("plan", { bold: true })], { props: { level: 1 } }),
      block("paragraph", [text("Pack "), text("light", { italic: true, textColor: "red" }), text(".")]),
      block("quote", [text("Travel is the only thing you buy that makes you richer")]),
    ];
    expect(contentToText(doc)).toBe("Trip plan\nPack light.\nTravel is the only thing you buy that makes you richer");
  });

  it("bullet, numbered, check and toggle list items, with nested children after their parent", () => {
    const doc = [
      block("bulletListItem", [text("fruit")], {
        children: [block("bulletListItem", [text("apples")], { children: [block("numberedListItem", [text("granny smith")])] })],
      }),
      block("numberedListItem", [text("first")]),
      block("checkListItem", [text("buy milk")], { props: { checked: true } }),
      block("toggleListItem", [text("details")], { children: [block("paragraph", [text("hidden text")])] }),
    ];
    expect(contentToText(doc)).toBe("fruit\napples\ngranny smith\nfirst\nbuy milk\ndetails\nhidden text");
  });

  it("links contribute their text", () => {
    const doc = [
      block("paragraph", [
        text("See "),
        { type: "link", href: "https://example.com/spec", content: [text("the "), text("spec", { bold: true })] },
        text(" for details"),
      ]),
    ];
    expect(contentToText(doc)).toBe("See the spec for details");
  });

  it("code blocks keep their line breaks", () => {
    const doc = [block("codeBlock", [text("const answer = 42;\nconsole.log(answer);")], { props: { language: "typescript" } })];
    expect(contentToText(doc)).toBe("const answer = 42;\nconsole.log(answer);");
  });

  it("tables: one line per row, cells separated by tabs, in both cell formats", () => {
    const cell = (...content: unknown[]) => ({ type: "tableCell", props: { colspan: 1, rowspan: 1 }, content });
    const doc = [
      block("table", {
        type: "tableContent",
        columnWidths: [undefined, undefined],
        headerRows: 1,
        rows: [
          { cells: [cell(text("Name")), cell(text("Qty"))] },
          { cells: [cell(text("eggs")), cell(text("12"))] },
          { cells: [cell(), cell(text("only second"))] },
          // Older documents store each cell as bare inline content.
          { cells: [[text("legacy")], [text("cell")]] },
        ],
      }),
    ];
    expect(contentToText(doc)).toBe("Name\tQty\neggs\t12\nonly second\nlegacy\tcell");
  });

  it("media blocks contribute their name and caption; dividers and empty blocks add nothing", () => {
    const doc = [
      block("image", undefined, { props: { url: "https://example.com/cat.png", name: "", caption: "A sleeping cat" } }),
      block("divider", undefined, { props: {} }),
      block("paragraph", []),
      block("file", undefined, { props: { url: "https://example.com/r.pdf", name: "report.pdf", caption: "" } }),
      block("video", undefined, { props: { url: "https://example.com/v.mp4", name: "", caption: "" } }),
      block("audio", undefined, { props: { url: "https://example.com/a.mp3", name: "interview.mp3", caption: "Q&A" } }),
    ];
    expect(contentToText(doc)).toBe("A sleeping cat\nreport.pdf\ninterview.mp3\nQ&A");
    // A list's preview shows the words people wrote, not file names.
    expect(previewText([block("paragraph", "See the scan:"), ...doc], "ignored")).toBe("See the scan:\nA sleeping cat\nQ&A");
    // A note an agent wrote as plain text has no blocks: its text is contentText.
    expect(previewText([], "Buy oat milk")).toBe("Buy oat milk");
  });

  it("custom inline content and unknown block types still give their text", () => {
    const doc = [
      block("paragraph", [text("Ask "), { type: "mention", props: { user: "ann" }, content: [text("@ann")] }, { type: "tag", props: {}, content: "#x" }]),
      block("callout", [text("Heads up")]),
    ];
    expect(contentToText(doc)).toBe("Ask @ann#x\nHeads up");
  });

  it("is total: non-documents give their text or nothing, never an exception", () => {
    expect(contentToText(undefined)).toBe("");
    expect(contentToText(null)).toBe("");
    expect(contentToText(42)).toBe("");
    expect(contentToText("plain string")).toBe("plain string");
    expect(contentToText([])).toBe("");
    expect(contentToText([null, 1, "x", { type: "paragraph" }, { content: { rows: "nope", type: "tableContent" } }])).toBe("");
    expect(contentToText(block("paragraph", [text("one block")]))).toBe("one block");
    let deep: Record<string, unknown> = block("paragraph", [text("bottom")]);
    for (let i = 0; i < 10_000; i += 1) deep = block("paragraph", [], { children: [deep] });
    expect(() => contentToText([deep])).not.toThrow();
  });

  it("matches the document the editor produces for every default block type", async () => {
    // The real editor, headless: what it writes into `editor.document` is what we index.
    const { BlockNoteEditor } = await import("@blocknote/core");
    const { noteSchema } = await import("@/lib/body/schema");
    const editor = BlockNoteEditor.create({
      schema: noteSchema,
      initialContent: [
        { type: "heading", props: { level: 2 }, content: "Heading" },
        { type: "paragraph", content: [{ type: "link", href: "https://example.com", content: "linked" }, " words"] },
        { type: "bulletListItem", content: "bullet", children: [{ type: "checkListItem", props: { checked: true }, content: "nested check" }] },
        { type: "numberedListItem", content: "numbered" },
        { type: "toggleListItem", content: "toggle" },
        { type: "quote", content: "quoted" },
        { type: "codeBlock", props: { language: "javascript" }, content: "let x = 1;\nx++;" },
        { type: "table", content: { type: "tableContent", rows: [{ cells: ["a1", "b1"] }, { cells: ["a2", "b2"] }] } },
        { type: "image", props: { url: "https://example.com/i.png", caption: "image caption" } },
        { type: "divider" },
      ],
    });
    expect(contentToText(editor.document)).toBe(
      "Heading\nlinked words\nbullet\nnested check\nnumbered\ntoggle\nquoted\nlet x = 1;\nx++;\na1\tb1\na2\tb2\nimage caption",
    );
  });
});
