import { describe, expect, it } from "vitest";
import { draftMatches, type NoteDraft } from "@/lib/notes/editor-session";
import { INITIAL_SETTINGS } from "@/lib/notes/settings";

const tag = (id: string, name: string) => ({ id, name, createdAt: "2026-01-01T00:00:00.000Z" }) as never;

// A draft left in the browser is dropped silently only when the server already has exactly it.
describe("draftMatches", () => {
  const saved = {
    title: "Plan",
    // As PostgreSQL's jsonb returns it: keys in its own order, unset widths as null.
    content: [{ type: "table", props: { textColor: "default" }, content: { type: "tableContent", rows: [], columnWidths: [null, null] }, children: [], id: "b1" }],
    tags: [tag("t2", "b"), tag("t1", "a")],
    ...INITIAL_SETTINGS,
    pinned: true,
  };
  const draft = (fields: Partial<NoteDraft>): NoteDraft => ({ noteId: "n", baseVersion: 3, savedAt: "2026-01-01T00:00:00.000Z", ...fields });

  it("matches the editor's JSON of the stored body whatever the key order", () => {
    const fromEditor = JSON.parse(
      JSON.stringify([{ id: "b1", type: "table", props: { textColor: "default" }, content: { type: "tableContent", columnWidths: [undefined, undefined], rows: [] }, children: [] }]),
    );
    expect(draftMatches(draft({ content: fromEditor }), saved)).toBe(true);
  });

  it("compares only the fields the draft holds; titles as the server stores them", () => {
    expect(draftMatches(draft({ title: "  Plan " }), saved)).toBe(true);
    expect(draftMatches(draft({ title: "Plan B" }), saved)).toBe(false);
    expect(draftMatches(draft({ title: "" }), { ...saved, title: "Untitled" })).toBe(true);
    expect(draftMatches(draft({ tags: [tag("t1", "a"), tag("t2", "b")] }), saved)).toBe(true);
    expect(draftMatches(draft({ tags: [tag("t1", "a")] }), saved)).toBe(false);
    expect(draftMatches(draft({ pinned: true }), saved)).toBe(true);
    expect(draftMatches(draft({ pinned: false }), saved)).toBe(false);
  });

  it("does not match a body with any change", () => {
    const changed = structuredClone(saved.content);
    changed[0]!.props.textColor = "red";
    expect(draftMatches(draft({ content: changed }), saved)).toBe(false);
  });
});
