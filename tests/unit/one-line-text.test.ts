import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentToText } from "@/lib/body/content-text";
import { noteExcerpt, oneLineText } from "@/lib/notes/excerpt";

// A list's line of a note keeps its blocks and a table's cells apart, so a
// table does not read as one run of words.
describe("a note's text on one line", () => {
  it("puts · between blocks and | between a table's cells", () => {
    const table = {
      type: "table",
      content: {
        type: "tableContent",
        rows: [
          { cells: [[{ type: "text", text: "Day", styles: {} }], [{ type: "text", text: "Plan", styles: {} }]] },
          { cells: [[{ type: "text", text: "Mon", styles: {} }], [{ type: "text", text: "Alfama  walk", styles: {} }]] },
        ],
      },
    };
    const text = contentToText([{ type: "paragraph", content: "Lisbon, three days." }, table]);
    expect(oneLineText(text)).toBe("Lisbon, three days. · Day | Plan · Mon | Alfama walk");
    expect(noteExcerpt(text).map((part) => part.text).join("")).toBe("Lisbon, three days. · Day | Plan · Mon | Alfama walk");
  });

  it("keeps every word in order, on one line, with no empty part", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "\u00a0") }), { maxLength: 4 }), { maxLength: 6 }), (lines) => {
        const text = lines.map((cells) => cells.join("\t")).join("\n");
        const line = oneLineText(text);
        expect(line).not.toMatch(/[\n\t]|\s{2}|^\s|\s$/);
        expect(line).not.toMatch(/(^| )[·|] [·|]( |$)/);
        expect(line.split(/[\s·|]+/).filter(Boolean)).toEqual(text.split(/\s+/).filter(Boolean));
      }),
    );
  });
});
