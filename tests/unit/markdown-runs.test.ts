import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blocksToMarkdown, markdownMemo, wholeMarkdown, type Block } from "@/lib/body/markdown-blocks";
import { inlineContent, noteBody } from "@/tests/helpers/note-arbitraries";

/**
 * A body's Markdown is written run by run, each run's Markdown remembered by
 * its JSON (lib/body/markdown-blocks.ts). These properties hold it to the body
 * written in one piece by Markdown's writer, from a cold memo, a warm one, and
 * one warmed by the body before one block changed.
 */
const RUNS = Number(process.env.FC_RUNS ?? 600);
const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {};
const settings = { numRuns: RUNS, ...replay };

const props = { backgroundColor: "default", textColor: "default", textAlignment: "left" };
const item = (id: string, type: string, text: string, children: Block[] = []): Block => ({ id, type, props: { ...props }, content: [{ type: "text", text, styles: {} }], children });
const emptyQuote = (id: string, children: Block[]): Block => ({ id, type: "quote", props: { backgroundColor: "default", textColor: "default" }, content: [], children });

describe("a body's Markdown, run by run", () => {
  it("is the body written in one piece, from a cold memo and from a warm one", () => {
    fc.assert(
      fc.property(noteBody, (blocks) => {
        const whole = wholeMarkdown(blocks);
        const memo = markdownMemo(1_000_000);
        expect(blocksToMarkdown(blocks)).toBe(whole);
        expect(blocksToMarkdown(blocks, memo)).toBe(whole);
        expect(blocksToMarkdown(blocks, memo)).toBe(whole);
      }),
      settings,
    );
  });

  it("after one block changes, with the memo the body before it left", () => {
    const edited = noteBody
      .filter((blocks) => blocks.length > 0)
      .chain((blocks) => fc.tuple(fc.constant(blocks), fc.nat({ max: blocks.length - 1 }), inlineContent()));
    fc.assert(
      fc.property(edited, ([blocks, index, content]) => {
        const memo = markdownMemo(1_000_000);
        blocksToMarkdown(blocks, memo);
        const target = blocks[index]!;
        const next = blocks.map((block, i) => (i === index && Array.isArray(target.content) ? { ...block, content } : block));
        expect(blocksToMarkdown(next, memo)).toBe(wholeMarkdown(next));
      }),
      settings,
    );
  });

  it("carries a list's bullet into the list or quote that follows it, as the writer does", () => {
    const cases: Block[][] = [
      // Two bullet lists one after the other: a numbered item between them is its own list.
      [item("a", "bulletListItem", "one"), item("b", "numberedListItem", "two"), item("c", "bulletListItem", "three")],
      // A quote without text whose first nested block is a list, right after a list.
      [item("a", "bulletListItem", "one"), emptyQuote("q", [item("b", "bulletListItem", "inside")]), item("c", "paragraph", "after")],
      // Numbered lists restarting at their own start.
      [{ ...item("a", "numberedListItem", "one"), props: { ...props, start: 3 } }, { ...item("b", "numberedListItem", "two"), props: { ...props, start: 7 } }],
    ];
    for (const blocks of cases) {
      const memo = markdownMemo(1_000_000);
      expect(blocksToMarkdown(blocks, memo)).toBe(wholeMarkdown(blocks));
      expect(blocksToMarkdown(blocks, memo)).toBe(wholeMarkdown(blocks));
    }
    // The quote's list takes the other bullet, so the two do not read as one list.
    expect(wholeMarkdown(cases[1])).toContain("> + inside");
  });

  it("remembers no more than its size, and writes a run it has let go of again", () => {
    const memo = markdownMemo(200);
    const blocks = Array.from({ length: 20 }, (_, i) => item(`p${i}`, "paragraph", `paragraph ${i}`));
    expect(blocksToMarkdown(blocks, memo)).toBe(wholeMarkdown(blocks));
    expect(memo.calculatedSize).toBeLessThanOrEqual(200);
    expect(memo.size).toBeLessThan(20);
    expect(blocksToMarkdown(blocks, memo)).toBe(wholeMarkdown(blocks));
  });
});
