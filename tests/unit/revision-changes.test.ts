import { describe, expect, it } from "vitest";
import { noteChanges } from "@/lib/revisions/diff";

const doc = (...texts: string[]) => texts.map((text, i) => ({ id: `b${i}`, type: "paragraph", props: {}, content: [{ type: "text", text, styles: {} }], children: [] }));

describe("noteChanges", () => {
  it("shows a changed block as its old line removed and its new line added, with unchanged lines around it folded", () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i === 5 ? "line five" : line));
    expect(noteChanges({ title: "T", content: doc(...lines), contentText: "" }, { title: "T", content: doc(...changed), contentText: "" }, 1)).toEqual([
      { kind: "skipped", count: 4 },
      { kind: "same", text: "line 4" },
      { kind: "removed", text: "line 5" },
      { kind: "added", text: "line five" },
      { kind: "same", text: "line 6" },
      { kind: "skipped", count: 3 },
    ]);
  });

  it("names a changed title, and reads a text-only note's contentText", () => {
    expect(noteChanges({ title: "Old", content: [], contentText: "kept\ngone" }, { title: "New", content: null, contentText: "kept" })).toEqual([
      { kind: "removed", text: "Title: Old" },
      { kind: "added", text: "Title: New" },
      { kind: "same", text: "kept" },
      { kind: "removed", text: "gone" },
    ]);
  });

  it("is empty when nothing differs", () => {
    expect(noteChanges({ title: "T", content: doc("a"), contentText: "a" }, { title: "T", content: doc("a"), contentText: "a" })).toEqual([{ kind: "skipped", count: 1 }]);
  });
});
