import { describe, expect, it } from "vitest";
import { BlockEditError, deleteBlock, findSection, moveBlock, replaceText, updateBlock, withFreshIds, type Block } from "@/lib/notes/blocks";

const text = (value: string, styles: Record<string, unknown> = {}) => ({ type: "text", text: value, styles });
const para = (id: string, content: unknown, children: Block[] = []): Block => ({ id, type: "paragraph", props: { textColor: "red" }, content, children });
const heading = (id: string, level: number, value: string): Block => ({ id, type: "heading", props: { level }, content: [text(value)], children: [] });

describe("replaceText", () => {
  it("replaces within one run and keeps every other block the same object", () => {
    const blocks = [para("a", [text("hello world")]), para("b", [text("untouched")])];
    const { blocks: out, count } = replaceText(blocks, "world", "there");
    expect(count).toBe(1);
    expect(out[0]).toEqual(para("a", [text("hello there")]));
    expect(out[1]).toBe(blocks[1]);
  });

  it("matches across styled runs, the replacement taking the style where the match starts", () => {
    const blocks = [para("a", [text("say hel"), text("lo there", { bold: true }), text("!")])];
    const { blocks: out, count } = replaceText(blocks, "hello", "bye");
    expect(count).toBe(1);
    expect(out[0]!.content).toEqual([text("say bye"), text(" there", { bold: true }), text("!")]);
  });

  it("counts every match: nested children, links, table cells and string content", () => {
    const table: Block = {
      id: "t",
      type: "table",
      content: { type: "tableContent", rows: [{ cells: [{ type: "tableCell", content: [text("x cat")] }, [text("cat")]] }] },
      children: [],
    };
    const blocks = [
      para("a", [text("cat "), { type: "link", href: "https://e.x", content: [text("cat")] }], [para("c", "a cat")]),
      table,
    ];
    const { blocks: out, count } = replaceText(blocks, "cat", "dog");
    expect(count).toBe(5);
    expect(JSON.stringify(out)).not.toContain("cat");
    expect(replaceText(blocks, "cow", "x")).toEqual({ blocks, count: 0 });
  });

  it("removes a run the match covers entirely", () => {
    const blocks = [para("a", [text("ab"), text("cd", { italic: true }), text("ef")])];
    expect(replaceText(blocks, "bcde", "").blocks[0]!.content).toEqual([text("a"), text("f")]);
  });
});

describe("sections", () => {
  const blocks = [heading("h1", 1, "Plan"), para("p1", "intro"), heading("h2", 2, "Steps"), para("p2", "step"), heading("h3", 2, "Risks"), para("p3", "risk")];
  it("runs from the heading to the next heading of its level or higher", () => {
    expect(findSection(blocks, "Steps")).toEqual({ start: 2, end: 4 });
    expect(findSection(blocks, " Plan ")).toEqual({ start: 0, end: 6 });
    expect(findSection(blocks, "Risks", 2)).toEqual({ start: 4, end: 6 });
  });
  it("fails on a missing or ambiguous heading", () => {
    expect(() => findSection(blocks, "Nope")).toThrow(BlockEditError);
    expect(() => findSection(blocks, "Steps", 3)).toThrow('no heading reads "Steps" at level 3');
    expect(() => findSection([...blocks, heading("h4", 2, "Steps")], "Steps")).toThrow("2 headings read");
  });
});

describe("blocks by id", () => {
  const nested = para("n", "nested");
  const blocks = [para("a", "one", [nested]), para("b", "two"), para("c", "three")];

  it("updates a nested block, copying only the path to it", () => {
    const out = updateBlock(blocks, "n", (block) => ({ ...block, content: "changed" }));
    expect((out[0]!.children as Block[])[0]).toEqual({ ...nested, content: "changed" });
    expect(out[1]).toBe(blocks[1]);
    expect(blocks[0]!.children).toEqual([nested]);
  });

  it("deletes and moves, before, after, to the start or end", () => {
    expect(deleteBlock(blocks, "b").map((b) => b.id)).toEqual(["a", "c"]);
    expect(moveBlock(blocks, "c", { before: "a" }).map((b) => b.id)).toEqual(["c", "a", "b"]);
    expect(moveBlock(blocks, "a", { after: "b" }).map((b) => b.id)).toEqual(["b", "a", "c"]);
    expect(moveBlock(blocks, "a", { to: "end" }).map((b) => b.id)).toEqual(["b", "c", "a"]);
    expect(moveBlock(blocks, "c", { to: "start" }).map((b) => b.id)).toEqual(["c", "a", "b"]);
    const intoChildren = moveBlock(blocks, "c", { after: "n" });
    expect(intoChildren.map((b) => b.id)).toEqual(["a", "b"]);
    expect((intoChildren[0]!.children as Block[]).map((b) => b.id)).toEqual(["n", "c"]);
  });

  it("names what is missing", () => {
    expect(() => deleteBlock(blocks, "zz")).toThrow("no block has id zz");
    expect(() => moveBlock(blocks, "a", { before: "zz" })).toThrow("no block has id zz");
    expect(() => moveBlock(blocks, "a", { after: "n" })).toThrow("block n is inside the block being moved");
    expect(() => moveBlock(blocks, "a", { after: "a" })).toThrow(BlockEditError);
  });

  it("gives new blocks ids the note does not use", () => {
    const fresh = withFreshIds([{ type: "paragraph" }, { id: "a", type: "paragraph", children: [{ id: "new", type: "paragraph" }] }], blocks);
    expect(fresh[0]!.id).toEqual(expect.any(String));
    expect(fresh[1]!.id).not.toBe("a");
    expect((fresh[1]!.children as Block[])[0]!.id).toBe("new");
  });
});
