import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZCreateNoteSchema, ZUpdateNoteSchema } from "@/lib/notes/schemas";
import { toPlainJson, toStorableString, UNSTORABLE } from "@/lib/db/storable-text";

describe("toPlainJson", () => {
  it("turns undefined inside arrays into null and drops undefined properties, as JSON does", () => {
    const table = { type: "table", content: { type: "tableContent", columnWidths: [undefined, 120, undefined], rows: [] }, extra: undefined };
    expect(toPlainJson([table])).toEqual(JSON.parse(JSON.stringify([table])));
    expect(toPlainJson([table])).toEqual([{ type: "table", content: { type: "tableContent", columnWidths: [null, 120, null], rows: [] } }]);
  });

  it("keeps scalars and maps non-finite numbers to null", () => {
    expect(toPlainJson("text")).toBe("text");
    expect(toPlainJson(0)).toBe(0);
    expect(toPlainJson(false)).toBe(false);
    expect(toPlainJson(Number.NaN)).toBeNull();
    expect(toPlainJson(undefined)).toBeNull();
  });

  it("copies a body nested far deeper than the call stack allows", () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => toPlainJson(deep)).not.toThrow();
  });

  it("is what the note schemas store, for both create and update", () => {
    const content = [{ type: "table", content: { type: "tableContent", columnWidths: [undefined], rows: [] } }];
    const created = ZCreateNoteSchema.parse({ title: "t", content });
    const updated = ZUpdateNoteSchema.parse({ content });
    expect(created.content).toEqual([{ type: "table", content: { type: "tableContent", columnWidths: [null], rows: [] } }]);
    expect(updated.content).toEqual(created.content);
  });
});

describe("toStorableString, the browser's side of the storable-text rule", () => {
  it("leaves storable text as it is, and makes any text storable: NUL dropped, a lone surrogate replaced", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("\u0000", "\ud83d", "\ude00", "a", "é", "😀") }), (text, tricky) => {
        for (const value of [text, tricky, text + tricky]) {
          const stored = toStorableString(value);
          expect(UNSTORABLE.test(stored)).toBe(false);
          if (!UNSTORABLE.test(value)) expect(stored).toBe(value);
        }
      }),
    );
    expect(toStorableString("a\u0000b\ud83dc\ude00😀")).toBe("ab\ufffdc\ufffd😀");
  });

  it("maps every string and key of a deeply nested body without exhausting the stack", () => {
    let deep: unknown = { "k\u0000ey": "v\ud83d" };
    for (let i = 0; i < 50_000; i += 1) deep = [deep];
    let copy = toPlainJson(deep, toStorableString);
    for (let i = 0; i < 50_000; i += 1) copy = (copy as unknown[])[0];
    expect(copy).toEqual({ key: "v\ufffd" });
  });
});
