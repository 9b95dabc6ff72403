import { describe, expect, it } from "vitest";
import { describeRevisionChange, formattingDiffers, noteChanges, revisionChange } from "@/lib/revisions/diff";
import { INITIAL_SETTINGS } from "@/lib/notes/settings";

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

const image = (id: string, name: string) => ({ id, type: "image", props: { url: `/api/attachments/${id}`, name, caption: "", showPreview: true, textAlignment: "left", backgroundColor: "default" }, children: [] });
const divider = (id: string) => ({ id, type: "divider", props: {}, children: [] });
const table = (id: string, ...rows: string[][]) => ({
  id,
  type: "table",
  props: { textColor: "default" },
  content: { type: "tableContent", columnWidths: [], rows: rows.map((cells) => ({ cells: cells.map((text) => ({ type: "tableCell", props: {}, content: [{ type: "text", text, styles: {} }] })) })) },
  children: [],
});
const state = (content: unknown[], more: { title?: string; tagIds?: string[]; pinned?: boolean | null } = {}) => ({
  title: more.title ?? "T",
  content,
  contentText: "",
  tagIds: more.tagIds ?? [],
  ...INITIAL_SETTINGS,
  pinned: more.pinned ?? false,
});

describe("noteChanges and formattingDiffers: blocks without text", () => {
  it("shows an image, a divider and a table as lines, so a note with one added is not the same", () => {
    const before = state(doc("a"));
    const after = state([...doc("a"), image("i", "photo.png"), divider("d"), table("t", ["x", "y"])]);
    expect(noteChanges(before, after).filter((line) => line.kind === "added")).toEqual([
      { kind: "added", text: "[image: photo.png]" },
      { kind: "added", text: "[divider]" },
      { kind: "added", text: "[table]" },
      { kind: "added", text: "x | y" },
    ]);
  });

  it("tells a difference of formatting alone (a colour, bold, alignment) from none, ignoring block ids and the trailing empty line", () => {
    const plain = doc("a", "b");
    const coloured = plain.map((block, i) => (i === 0 ? { ...block, props: { textColor: "red" } } : block));
    const bold = plain.map((block, i) => (i === 1 ? { ...block, content: [{ type: "text", text: "b", styles: { bold: true } }] } : block));
    const renumbered = plain.map((block, i) => ({ ...block, id: `other${i}`, props: { textColor: "default", textAlignment: "left" } }));
    const trailing = [...plain, { id: "e", type: "paragraph", props: {}, content: [], children: [] }];
    for (const other of [coloured, bold]) {
      expect(noteChanges(state(plain), state(other)).every((line) => line.kind === "skipped" || line.kind === "same")).toBe(true);
      expect(formattingDiffers(state(plain), state(other))).toBe(true);
    }
    expect(formattingDiffers(state(plain), state(renumbered))).toBe(false);
    expect(formattingDiffers(state(plain), state(trailing))).toBe(false);
  });
});

describe("revisionChange and describeRevisionChange", () => {
  const label = (before: ReturnType<typeof state> | null, after: ReturnType<typeof state>) => describeRevisionChange(revisionChange(before, after));

  it("summarises a version against the one before it", () => {
    expect(label(null, state(doc("a", "b")))).toBe("Created · 2 lines added");
    expect(label(null, state([]))).toBe("Created empty");
    expect(label(state(doc("a", "b")), state(doc("a", "c", "d"), { title: "New" }))).toBe("Title changed · 2 lines added, 1 removed");
    expect(label(state(doc("a")), state([...doc("a"), image("i", "photo.png")]))).toBe("Image added");
    expect(label(state([...doc("a"), image("i", "photo.png"), image("j", "map.png")]), state(doc("a")))).toBe("2 images removed");
    expect(label(state([image("i", "photo.png")]), state([image("i", "other.png")]))).toBe("Image changed");
    expect(label(state(doc("a")), state(doc("a").map((block) => ({ ...block, props: { textAlignment: "center" } }))))).toBe("Formatting changed");
    expect(label(state(doc("a")), state(doc("a"), { tagIds: ["t"], pinned: true }))).toBe("Tags changed · Pinned");
    expect(label(state(doc("a")), state(doc("a")))).toBe("No visible change");
    const restore = revisionChange(state(doc("a")), state(doc("b")));
    expect(describeRevisionChange(restore, { at: "14:05", authorKind: "browser" })).toBe("Restored your version from 14:05");
    expect(describeRevisionChange(restore, { at: "14:02", authorKind: "mcp" })).toBe("Restored the agent's version from 14:02");
  });

  it("reads a note written as text only by its text", () => {
    const text = (contentText: string) => ({ title: "T", content: [], contentText, tagIds: [], ...INITIAL_SETTINGS, pinned: null });
    expect(describeRevisionChange(revisionChange(text("a\nb"), text("a\nb\nc")))).toBe("1 line added");
  });
});
