import { describe, expect, it } from "vitest";
import { CONTENT_LIMITS, contentLimitViolation } from "@/lib/body/content-limits";
import { ZCreateNoteSchema, ZUpdateNoteSchema } from "@/lib/notes/schemas";

const paragraph = (text: string, children: unknown[] = []) => ({
  type: "paragraph",
  props: {},
  content: [{ type: "text", text, styles: {} }],
  children,
});

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedBlocks(depth: number): unknown[] {
  let block = paragraph("leaf");
  for (let i = 0; i < depth; i++) block = paragraph(`level ${i}`, [block]);
  return [block];
}

describe("content limits", () => {
  it("accepts an ordinary document, nested children and a table", () => {
    const table = {
      type: "table",
      content: { type: "tableContent", columnWidths: [null, null], rows: [{ cells: [{ type: "tableCell", content: [{ type: "text", text: "a", styles: {} }] }] }] },
      children: [],
    };
    expect(contentLimitViolation([paragraph("one"), ...nestedBlocks(10), table])).toBeUndefined();
    expect(contentLimitViolation(null)).toBeUndefined();
    expect(contentLimitViolation("a string body")).toBeUndefined();
  });

  it("refuses JSON nested deeper than the limit, without recursion (a million levels)", () => {
    expect(contentLimitViolation(nestedArrays(CONTENT_LIMITS.maxDepth - 1))).toBeUndefined();
    expect(contentLimitViolation(nestedArrays(CONTENT_LIMITS.maxDepth + 1))).toBe(`Content may nest at most ${CONTENT_LIMITS.maxDepth} levels deep`);
    expect(contentLimitViolation(nestedArrays(1_000_000))).toMatch(/nest at most/);
    expect(contentLimitViolation(nestedBlocks(200))).toMatch(/nest at most/);
  });

  it("counts blocks at the top level and among children", () => {
    const small = (children: unknown[] = []) => ({ type: "paragraph", children });
    const flat = Array.from({ length: CONTENT_LIMITS.maxBlocks }, () => small());
    expect(contentLimitViolation(flat)).toBeUndefined();
    expect(contentLimitViolation([...flat, small()])).toMatch(/at most 10,000 blocks/);
    const half = Array.from({ length: CONTENT_LIMITS.maxBlocks / 2 }, () => small([small(), small()]));
    expect(contentLimitViolation(half)).toMatch(/blocks/);
  });

  it("refuses content over the byte limit", () => {
    const big = [paragraph("x".repeat(CONTENT_LIMITS.maxBytes))];
    expect(contentLimitViolation(big)).toMatch(/at most 1,900,000 bytes/);
  });

  it("is a 400-style issue on content in the create and update schemas, before anything else runs", () => {
    for (const schema of [ZCreateNoteSchema, ZUpdateNoteSchema]) {
      const parsed = schema.safeParse({ title: "Deep", content: nestedArrays(100_000) });
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ["content"], message: `Content may nest at most ${CONTENT_LIMITS.maxDepth} levels deep` })]);
    }
    const ok = ZCreateNoteSchema.parse({ title: "Table", content: [{ type: "table", content: { columnWidths: [undefined, 120] } }] });
    expect(ok.content).toEqual([{ type: "table", content: { columnWidths: [null, 120] } }]);
  });
});
