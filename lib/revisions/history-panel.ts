import type { RevisionChangeInfo } from "@/lib/revisions/queries";
import type { TRevision, TRevisionSummary } from "@/lib/revisions/schemas";

/**
 * A restore made from the history panel: what it put back, the note's
 * version it made, and the revision before it (which undoes it) once the
 * reloaded list shows it. An undo is a restore too, with nothing to undo.
 */
type PanelRestore = { label: string; version: number; undoing: boolean; undo: TRevisionSummary | null };

/** The history panel's state: the list of versions, the one chosen, a restore and its undo. */
export type HistoryPanelState = {
  /** Null while the first page loads. */
  revisions: TRevisionSummary[] | null;
  changes: Record<string, RevisionChangeInfo>;
  nextCursor?: string;
  /** The version shown, compared with the note now. */
  selected: TRevision | null;
  /** The version being loaded to be shown. */
  choosing: string | null;
  /** Why the last step failed, for the person to read. */
  message: string | null;
  restore: PanelRestore | null;
  /** A restore is being written. */
  busy: boolean;
};

export type HistoryPanelEvent =
  | { type: "opened" }
  | { type: "page_loaded"; revisions: TRevisionSummary[]; changes: Record<string, RevisionChangeInfo>; nextCursor?: string; append: boolean }
  | { type: "load_failed"; message: string }
  | { type: "choosing"; revisionId: string }
  | { type: "chosen"; revision: TRevision }
  | { type: "choice_failed"; revisionId: string; message: string }
  | { type: "restore_started" }
  | { type: "restore_failed"; message: string | null }
  | { type: "restored"; version: number; label: string; undoing: boolean };

export const initialHistoryPanel: HistoryPanelState = { revisions: null, changes: {}, selected: null, choosing: null, message: null, restore: null, busy: false };

export function historyPanelReducer(state: HistoryPanelState, event: HistoryPanelEvent): HistoryPanelState {
  switch (event.type) {
    case "opened":
      return initialHistoryPanel;
    case "page_loaded": {
      const revisions = event.append && state.revisions ? [...state.revisions, ...event.revisions] : event.revisions;
      const changes = event.append ? { ...state.changes, ...event.changes } : event.changes;
      let restore = state.restore;
      // The first page after a restore: the version before the restore's undoes it.
      if (!event.append && restore && !restore.undoing && restore.undo === null) {
        const at = revisions.findIndex((revision) => revision.version === restore!.version);
        restore = { ...restore, undo: at >= 0 ? (revisions[at + 1] ?? null) : null };
      }
      return { ...state, revisions, changes, nextCursor: event.nextCursor, restore };
    }
    case "load_failed":
      return { ...state, revisions: state.revisions ?? [], message: event.message };
    case "choosing":
      return { ...state, choosing: event.revisionId, message: null, restore: null };
    case "chosen":
      // A version chosen after this one wins.
      return state.choosing === event.revision.id ? { ...state, selected: event.revision, choosing: null } : state;
    case "choice_failed":
      return state.choosing === event.revisionId ? { ...state, choosing: null, message: event.message } : state;
    case "restore_started":
      return { ...state, busy: true, message: null };
    case "restore_failed":
      return { ...state, busy: false, message: event.message };
    case "restored":
      return { ...state, busy: false, selected: null, restore: { label: event.label, version: event.version, undoing: event.undoing, undo: null } };
  }
}
