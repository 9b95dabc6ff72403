import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyPanelReducer, initialHistoryPanel, type HistoryPanelEvent, type HistoryPanelState } from "@/lib/revisions/history-panel";
import type { TRevision, TRevisionSummary } from "@/lib/revisions/schemas";
import { INITIAL_SETTINGS } from "@/lib/notes/settings";

const summary = (version: number, restoredFrom?: number): TRevisionSummary => ({
  id: `r${version}`,
  noteId: "n",
  version,
  author: { kind: "browser", email: "a@example.com" },
  ...(restoredFrom === undefined ? {} : { restoredFrom }),
  title: "T",
  tags: [],
  ...INITIAL_SETTINGS,
  createdAt: "2026-11-26T10:00:00.000Z",
  updatedAt: "2026-11-26T10:00:00.000Z",
});
const full = (version: number): TRevision => ({ ...summary(version), content: [], contentText: "" });
const page = (revisions: TRevisionSummary[], append = false): HistoryPanelEvent => ({ type: "page_loaded", revisions, changes: {}, append });
const run = (events: HistoryPanelEvent[], from: HistoryPanelState = initialHistoryPanel) => events.reduce(historyPanelReducer, from);

describe("the history panel's state", () => {
  it("is loading until the first page comes, and a failed load shows why with an empty list", () => {
    expect(run([{ type: "opened" }]).revisions).toBeNull();
    expect(run([{ type: "opened" }, page([summary(2), summary(1)])]).revisions?.map((r) => r.version)).toEqual([2, 1]);
    expect(run([{ type: "opened" }, { type: "load_failed", message: "offline" }])).toMatchObject({ revisions: [], message: "offline" });
  });

  it("after a restore, offers as its undo the version before the restore, and after the undo, nothing more", () => {
    const restored = run([page([summary(3), summary(2), summary(1)]), { type: "choosing", revisionId: "r1" }, { type: "chosen", revision: full(1) }, { type: "restore_started" }]);
    expect(restored.busy).toBe(true);
    const written = run([{ type: "restored", version: 4, label: "Restored the version from 10:00.", undoing: false }], restored);
    expect(written).toMatchObject({ busy: false, selected: null, restore: { label: "Restored the version from 10:00.", undo: null } });
    const listed = run([page([summary(4, 1), summary(3), summary(2), summary(1)])], written);
    expect(listed.restore?.undo?.version).toBe(3);
    const undone = run([{ type: "restore_started" }, { type: "restored", version: 5, label: "Restore undone", undoing: true }, page([summary(5, 3), summary(4, 1), summary(3)])], listed);
    expect(undone.restore).toMatchObject({ label: "Restore undone", undo: null });
  });

  it("shows the version chosen last, whatever order the answers come in", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat()), (chosen, order) => {
        let state = run([page([5, 4, 3, 2, 1].map((v) => summary(v)))]);
        for (const version of chosen) state = historyPanelReducer(state, { type: "choosing", revisionId: `r${version}` });
        // The answers arrive in any order, the last choice's among them.
        const answers = chosen.map((version, i) => ({ version, key: order[i] ?? 0 })).sort((a, b) => a.key - b.key);
        for (const { version } of answers) state = historyPanelReducer(state, { type: "chosen", revision: full(version) });
        expect(state.selected?.version).toBe(chosen.at(-1));
        expect(state.choosing).toBeNull();
      }),
    );
  });
});
