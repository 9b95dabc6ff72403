import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alignBlocks, keepMatchingNested } from "@/lib/notes/markdown-merge";
import { richNotes } from "@/tests/helpers/rich-notes";

process.env.CONVERSION_THREADS = "1";
process.env.CONVERSION_TIMEOUT_MS = "60000";
process.env.CONVERSION_QUEUE_TIMEOUT_MS = "120000";

const { runConversion, closeConversionPool } = await import("@/lib/editor/conversion-pool");

async function blockMarkdown(content: unknown): Promise<(string | null)[]> {
  const result = await runConversion({ kind: "block-markdown", content }, "Note");
  if (!result.ok || !("blockMarkdown" in result)) throw new Error("no block Markdown");
  return result.blockMarkdown;
}

async function markdownOf(content: unknown): Promise<string> {
  const result = await runConversion({ kind: "content", content }, "Note");
  if (!result.ok || !("markdown" in result)) throw new Error("no Markdown");
  return result.markdown;
}

async function blocksOf(markdown: string): Promise<unknown[]> {
  const result = await runConversion({ kind: "markdown", markdown }, "Markdown");
  if (!result.ok || !("markdown" in result)) throw new Error("no blocks");
  return result.content as unknown[];
}

/** What PATCH with contentMarkdown does over a note's blocks (lib/notes/markdown-merge.ts), on the converter itself. */
async function writeBack(current: unknown[], markdown: string): Promise<unknown[]> {
  const next = await blocksOf(markdown);
  return keepMatchingNested(current, await blockMarkdown(current), next, await blockMarkdown(next), blockMarkdown);
}

describe("alignBlocks", () => {
  it.each([
    ["identical", ["a", "b", "c"], ["a", "b", "c"], [[0, 0], [1, 1], [2, 2]]],
    ["one changed in the middle", ["a", "b", "c"], ["a", "x", "c"], [[0, 0], [2, 2]]],
    ["one inserted", ["a", "b"], ["a", "x", "b"], [[0, 0], [1, 2]]],
    ["one removed", ["a", "b", "c"], ["a", "c"], [[0, 0], [2, 1]]],
    ["moved", ["a", "b", "c", "d"], ["b", "c", "a", "d"], [[1, 0], [2, 1], [3, 3]]],
    ["duplicates matched once each", ["a", "a"], ["a", "a", "a"], [[0, 0], [1, 1]]],
    ["null never matches", [null, "a"], [null, "a"], [[1, 1]]],
    ["empty", [], ["a"], []],
  ] as const)("%s", (_name, a, b, pairs) => {
    expect(alignBlocks(a, b)).toEqual(pairs);
  });
});

describe("Markdown written back over BlockNote's own blocks", () => {
  beforeAll(async () => {
    await runConversion({ kind: "markdown", markdown: "warm" }, "Markdown");
  });
  afterAll(() => closeConversionPool());

  it.each(richNotes().map((note) => [note.title, note.content] as const))("%s: unchanged Markdown keeps every block exactly", async (_title, content) => {
    expect(await writeBack(content, await markdownOf(content))).toEqual(content);
  });

  it("one paragraph changed: only that block is new", async () => {
    const content = richNotes()[0]!.content;
    const markdown = (await markdownOf(content)).replace("Highlighted background", "Highlighted background, edited");
    const merged = await writeBack(content, markdown);
    expect(merged).toHaveLength(content.length);
    const differing = merged.flatMap((block, i) => (JSON.stringify(block) === JSON.stringify(content[i]) ? [] : [i]));
    expect(differing).toEqual([2]);
    expect(merged[2]).toMatchObject({ type: "paragraph", content: [{ type: "text", text: "Highlighted background, edited" }] });
  });

  it("one item changed in a nested list: only that item is new, its parent and siblings stay as stored", async () => {
    const content = richNotes()[1]!.content as { id: string; children: unknown[] }[];
    const nested = content[0]!.children[0] as { id: string };
    const markdown = (await markdownOf(content)).replace("nested", "nested, edited");
    const merged = (await writeBack(content, markdown)) as typeof content;
    expect(merged).toHaveLength(content.length);
    // The parent keeps its id and colour; every other block is kept exactly.
    expect({ ...merged[0], children: [] }).toEqual({ ...content[0], children: [] });
    expect(merged.slice(1)).toEqual(content.slice(1));
    expect(merged[0]!.children).toHaveLength(1);
    expect(merged[0]!.children[0]).toMatchObject({ type: "bulletListItem", content: [{ type: "text", text: "nested, edited" }] });
    expect((merged[0]!.children[0] as { id: string }).id).not.toBe(nested.id);
  });
});
