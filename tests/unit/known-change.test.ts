import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keptBlocks, keptText } from "@/lib/notes/known-change";

// What PostgreSQL's note_revision_common_head/_tail compute: code points kept
// from the start, then from the end of what is left.
function keptByCodePoints(before: string, after: string): { head: number; tail: number } {
  const a = [...before];
  const b = [...after];
  const most = Math.min(a.length, b.length);
  let head = 0;
  while (head < most && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < most - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  return { head, tail };
}

describe("keptText", () => {
  it.each([
    ["abc", "abc", { head: 3, tail: 0 }],
    ["abc", "axc", { head: 1, tail: 1 }],
    ["", "new", { head: 0, tail: 0 }],
    // Two emoji sharing a high surrogate: the pair is not split, and each counts once.
    ["a😀b", "a😁b", { head: 1, tail: 1 }],
    ["😀😀x", "😀😀y", { head: 2, tail: 0 }],
    ["x😀", "y😀", { head: 0, tail: 1 }],
  ])("%j → %j keeps %j", (before, after, expected) => {
    expect(keptText(before, after)).toEqual(expected);
    expect(keptByCodePoints(before, after)).toEqual(expected);
  });

  it("counts what PostgreSQL counts, for any two texts", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "é", "😀", "😁", "\n") });
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(keptText(before, after)).toEqual(keptByCodePoints(before, after));
      }),
    );
  });
});

describe("keptBlocks", () => {
  const block = (id: string, text: string) => ({ id, type: "paragraph", props: {}, content: [{ type: "text", text, styles: {} }], children: [] });
  const blocks = ["a", "b", "c", "d"].map((id) => block(id, id));

  it("keeps the untouched blocks around a changed one", () => {
    const after = blocks.map((b) => (b.id === "b" ? block("b", "changed") : b));
    expect(keptBlocks(blocks, after)).toEqual({ head: 1, tail: 2, same: false });
  });

  it("takes a block with the same JSON, keys in another order, as kept", () => {
    const reordered = { children: [], content: blocks[1]!.content, props: {}, type: "paragraph", id: "b" };
    expect(keptBlocks(blocks, [blocks[0], reordered, ...blocks.slice(2)])).toEqual({ head: 4, tail: 0, same: true });
  });

  it("never counts a block twice when blocks come or go", () => {
    expect(keptBlocks(blocks, [...blocks, block("e", "e")])).toEqual({ head: 4, tail: 0, same: false });
    expect(keptBlocks(blocks, [blocks[0], blocks[0], ...blocks.slice(1)])).toEqual({ head: 1, tail: 3, same: false });
    expect(keptBlocks(blocks, [])).toEqual({ head: 0, tail: 0, same: false });
  });
});
