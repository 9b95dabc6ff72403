import { describe, expect, it } from "vitest";
import { blocksToMarkdown } from "@/lib/body/markdown-blocks";
import { alignBlocks, markdownOverBlocks } from "@/lib/body/keep-blocks";
import { richNotes } from "@/tests/helpers/rich-notes";

const markdownOf = (content: unknown) => blocksToMarkdown(content);

/** What PATCH with contentMarkdown does over a note's blocks (lib/body/keep-blocks.ts). */
const writeBack = (current: unknown[], markdown: string): unknown[] => markdownOverBlocks(current, markdown);

describe("alignBlocks", () => {
  it.each([
    ["identical", ["a", "b", "c"], ["a", "b", "c"], [[0, 0], [1, 1], [2, 2]]],
    ["one changed in the middle", ["a", "b", "c"], ["a", "x", "c"], [[0, 0], [2, 2]]],
    ["one inserted", ["a", "b"], ["a", "x", "b"], [[0, 0], [1, 2]]],
    ["one removed", ["a", "b", "c"], ["a", "c"], [[0, 0], [2, 1]]],
    ["moved", ["a", "b", "c", "d"], ["b", "c", "a", "d"], [[1, 0], [2, 1], [3, 3]]],
    ["duplicates matched once each", ["a", "a"], ["a", "a", "a"], [[0, 0], [1, 1]]],
    ["empty", [], ["a"], []],
  ] as const)("%s", (_name, a, b, pairs) => {
    expect(alignBlocks(a, b)).toEqual(pairs);
  });
});

describe("Markdown written back over the editor's blocks", () => {
  it.each(richNotes().map((note) => [note.title, note.content] as const))("%s: unchanged Markdown keeps every block exactly", (_title, content) => {
    expect(writeBack(content, markdownOf(content))).toEqual(content);
  });

  it("one paragraph changed: only that block changes, keeping its id and colours", () => {
    const content = richNotes()[0]!.content;
    const markdown = (markdownOf(content)).replace("Highlighted background", "Highlighted background, edited");
    const merged = writeBack(content, markdown);
    expect(merged).toHaveLength(content.length);
    const differing = merged.flatMap((block, i) => (JSON.stringify(block) === JSON.stringify(content[i]) ? [] : [i]));
    expect(differing).toEqual([2]);
    expect(merged[2]).toMatchObject({ id: (content[2] as { id: string }).id, props: (content[2] as { props: object }).props, type: "paragraph", content: [{ type: "text", text: "Highlighted background, edited" }] });
  });

  it("one item changed in a nested list: only that item changes, keeping its id; its parent and siblings stay as stored", () => {
    const content = richNotes()[1]!.content as { id: string; children: unknown[] }[];
    const nested = content[0]!.children[0] as { id: string };
    const markdown = (markdownOf(content)).replace("nested", "nested, edited");
    const merged = (writeBack(content, markdown)) as typeof content;
    expect(merged).toHaveLength(content.length);
    // The parent keeps its id and colour; every other block is kept exactly.
    expect({ ...merged[0], children: [] }).toEqual({ ...content[0], children: [] });
    expect(merged.slice(1)).toEqual(content.slice(1));
    expect(merged[0]!.children).toHaveLength(1);
    expect(merged[0]!.children[0]).toMatchObject({ type: "bulletListItem", content: [{ type: "text", text: "nested, edited" }] });
    expect((merged[0]!.children[0] as { id: string }).id).toBe(nested.id);
  });
});

describe("blocks lined up without writing their Markdown", () => {
  const video = { id: "video-1", type: "video", props: { backgroundColor: "default", name: "clip", url: "/api/attachments/1", caption: "", showPreview: true, textAlignment: "left" }, children: [] };
  const paragraph = (id: string, text: string) => ({ id, type: "paragraph", props: { backgroundColor: "default", textColor: "default", textAlignment: "left" }, content: [{ type: "text", text, styles: {} }], children: [] });

  it("a paragraph holding a block that travels as JSON, unchanged, stays as stored", () => {
    const content = [{ ...paragraph("p-1", "parent"), children: [video] }];
    expect(writeBack(content, markdownOf(content))).toEqual(content);
  });

  it("a stored block's keys in another order (as the database returns them) still line up as unchanged", () => {
    const content = [paragraph("p-1", "one"), paragraph("p-2", "two")];
    const reordered = content.map((block) => JSON.parse(JSON.stringify(block, Object.keys(block).concat(["backgroundColor", "textColor", "textAlignment", "type", "text", "styles"]).sort().reverse())) as unknown);
    expect(writeBack(reordered, markdownOf(content))).toEqual(reordered);
  });
});
