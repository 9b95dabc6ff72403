import type { EditorNote } from "@/lib/notes/editor-types";
import type { TTag } from "@/lib/tags/schemas";

/**
 * One open note's saving, as a value: what is changed and not sent, the save
 * on its way, the version saves are conditional on, and why saving waits
 * (a conflict, a refusal, a lost connection). Every step is an event through
 * `editorSessionReducer`; the browser parts (timers, the save request, the
 * draft in localStorage) live in components/editor/use-note-saver.ts and
 * only act on what the state says.
 */

export type SaveStatus = "saved" | "saving" | "offline" | "conflict" | "error";

/** Why the last save did not happen, in words for the person. */
export type SaveFailure = {
  /**
   * refused: the note as it is cannot be saved (too large, say): changing it or
   * "Try again" saves again, nothing else does. server: the server failed; it
   * is tried again a few times by itself. signed_out / not_found: as named.
   */
  kind: "refused" | "server" | "signed_out" | "not_found";
  message: string;
  /** Another attempt is scheduled without the person doing anything. */
  retrying: boolean;
};

export const NOTE_FIELDS = ["title", "content", "tags", "pinned"] as const;
export type NoteField = (typeof NOTE_FIELDS)[number];
export type Fields = Record<NoteField, boolean>;
/** Why saving waits for the person: until then changes are only kept in the browser. */
type Hold = "conflict" | "signed_out" | "not_found" | "refused" | "stopped" | null;
/** The note as the server has it at the version saves are conditional on: the base a write made elsewhere is merged against. */
type NoteBase = { title: string; content: unknown; tags: TTag[]; pinned: boolean };

const everyField = (value: boolean) => Object.fromEntries(NOTE_FIELDS.map((field) => [field, value])) as Fields;
const CLEAN = everyField(false);
const ALL = everyField(true);
export const anyField = (fields: Fields) => NOTE_FIELDS.some((field) => fields[field]);
/** The fields changed in either. */
export const unionFields = (a: Fields, b: Fields) => Object.fromEntries(NOTE_FIELDS.map((field) => [field, a[field] || b[field]])) as Fields;

const MAX_RETRY_MS = 30_000;
/** A failing server is asked again this many times (after 2 s, then 6 s), then saving waits for the person. */
const SERVER_RETRIES = 2;

export type EditorSession = {
  /** The note's version the next save is conditional on. */
  version: number;
  /** Null when not known: unsaved changes from an earlier visit made on an older version. */
  base: NoteBase | null;
  updatedAt: string;
  /** Fields changed and not sent yet. */
  dirty: Fields;
  /** Fields of the save on its way (kept in the draft until it is answered); null when none is. */
  sending: Fields | null;
  hold: Hold;
  status: SaveStatus;
  /** The newer note a save ran into, for the person to decide about. */
  conflict: EditorNote | null;
  failure: SaveFailure | null;
  /** Why the changes are not saved, kept with them in the browser's draft. */
  reason: string | undefined;
  /** False when this browser would not store the unsaved changes (storage full or disabled). */
  draftKept: boolean;
  /** The wait before the next try when the connection was lost (doubling, up to 30 s). */
  retryMs: number;
  serverFailures: number;
  /** After the last answer: saving goes on by itself in this many ms; null when it waits for a change or the person. */
  again: number | null;
};

export type EditorSessionEvent =
  /** The person changed a field. */
  | { type: "changed"; field: NoteField }
  /** The pending changes go out in one save. */
  | { type: "save_started" }
  /** The note as it is cannot be sent (too large): nothing left, saving waits. */
  | { type: "save_refused"; message: string }
  /** The server stored the save: what it wrote, at its new version. */
  | { type: "save_succeeded"; version: number; updatedAt: string; wrote: Partial<NoteBase> }
  /** No answer: the network is the cause. */
  | { type: "save_offline" }
  /**
   * The note was written elsewhere first. `merged`: that write was merged
   * into what is on screen (and `rebased` dispatched), so saving goes on.
   */
  | { type: "save_conflicted"; current: EditorNote; merged: boolean }
  | { type: "save_failed"; error: "server" | "invalid" | "signed_out" | "not_found"; message: string }
  /** A write made elsewhere was merged into what is on screen: saves are now conditional on it. */
  | { type: "rebased"; current: EditorNote }
  /** The person took the note as it is now, dropping what is unsaved here. */
  | { type: "remote_accepted"; current: EditorNote }
  /** The person keeps theirs over the newer version. */
  | { type: "kept_mine" }
  /** A newer version that cannot be merged while something here is unsaved. */
  | { type: "conflict_shown"; current: EditorNote }
  /** Unsaved changes from an earlier visit, found in this browser and shown again. */
  | { type: "draft_restored"; baseVersion: number; fields: Fields; reason: string | undefined }
  /** The browser did or did not store the unsaved changes. */
  | { type: "draft_kept"; kept: boolean }
  /** The note is being deleted: nothing more is saved. */
  | { type: "stopped" }
  | { type: "resumed" }
  /** The person asks to try again. */
  | { type: "retried" };

export function initialEditorSession(note: Pick<EditorNote, "version" | "updatedAt" | "title" | "content" | "tags" | "pinned">): EditorSession {
  return {
    version: note.version,
    base: { title: note.title, content: note.content, tags: note.tags, pinned: note.pinned },
    updatedAt: note.updatedAt,
    dirty: CLEAN,
    sending: null,
    hold: null,
    status: "saved",
    conflict: null,
    failure: null,
    reason: undefined,
    draftKept: true,
    retryMs: 0,
    serverFailures: 0,
    again: null,
  };
}

/** Something unsaved: changed here, or on its way and not answered. */
export const hasUnsaved = (state: EditorSession) => anyField(state.dirty) || state.sending !== null;

const withFailure = (state: EditorSession, failure: SaveFailure | null): EditorSession => ({ ...state, failure, reason: failure?.message });

/** Saving waits for the person, with the reason shown. */
const refuse = (state: EditorSession, failure: SaveFailure, hold: Hold = "refused"): EditorSession => ({ ...withFailure(state, failure), hold, status: "error" });

const rebase = (state: EditorSession, current: EditorNote): EditorSession => ({
  ...state,
  version: current.version,
  base: { title: current.title, content: current.content, tags: current.tags, pinned: current.pinned },
  updatedAt: current.updatedAt,
});

/** The save on its way was answered without storing it: its fields are pending again. */
const answered = (state: EditorSession): EditorSession => ({ ...state, dirty: unionFields(state.dirty, state.sending ?? CLEAN), sending: null, again: null });

export function editorSessionReducer(state: EditorSession, event: EditorSessionEvent): EditorSession {
  switch (event.type) {
    case "changed": {
      // A refused note that changed may be accepted now: one more try, after the pause.
      const hold = state.hold === "refused" ? null : state.hold;
      const status = hold || state.status === "offline" || state.status === "error" ? state.status : "saving";
      // The same field again, nothing else to say: the same state, so nothing renders again.
      if (state.dirty[event.field] && hold === state.hold && status === state.status) return state;
      return { ...state, dirty: { ...state.dirty, [event.field]: true }, hold, status };
    }
    case "save_started":
      // One save at a time, and none while saving waits or nothing changed.
      if (state.hold || state.sending || !anyField(state.dirty)) return state;
      return { ...state, sending: state.dirty, dirty: CLEAN, status: "saving" };
    case "save_refused":
      return refuse(state, { kind: "refused", message: event.message, retrying: false });
    case "save_succeeded": {
      if (!state.sending) return state;
      const { base } = state;
      const next: EditorSession = {
        ...withFailure(state, null),
        version: event.version,
        updatedAt: event.updatedAt,
        // What the server has now: the base it had, with what this save wrote.
        base: base ? { ...base, ...event.wrote } : null,
        sending: null,
        retryMs: 0,
        serverFailures: 0,
      };
      // More changes arrived while this one was on its way: they go at once.
      return anyField(state.dirty) ? { ...next, again: 0 } : { ...next, status: "saved", again: null };
    }
    case "save_offline": {
      if (!state.sending) return state;
      // No answer: keep the changes and try again, for as long as it takes.
      const retryMs = Math.min(MAX_RETRY_MS, Math.max(1000, state.retryMs * 2));
      return { ...withFailure(answered(state), null), retryMs, status: "offline", again: retryMs };
    }
    case "save_conflicted": {
      if (!state.sending) return state;
      const next = { ...answered(state), retryMs: 0 };
      // Merged into what is on screen: saved again, on top of their version.
      if (event.merged) return { ...next, again: 0 };
      return { ...next, hold: "conflict", conflict: event.current, status: "conflict" };
    }
    case "save_failed": {
      if (!state.sending) return state;
      const next = { ...answered(state), retryMs: 0 };
      if (event.error === "server") {
        const serverFailures = state.serverFailures + 1;
        const retrying = serverFailures <= SERVER_RETRIES;
        const failed = refuse({ ...next, serverFailures }, { kind: "server", message: event.message, retrying }, retrying ? null : "refused");
        return retrying ? { ...failed, again: 2000 * 3 ** (serverFailures - 1) } : failed;
      }
      if (event.error === "invalid") return refuse(next, { kind: "refused", message: event.message, retrying: false });
      return refuse(next, { kind: event.error, message: event.message, retrying: false }, event.error);
    }
    case "rebased":
      return rebase(state, event.current);
    case "remote_accepted":
      return { ...withFailure(rebase(state, event.current), null), dirty: CLEAN, hold: null, serverFailures: 0, conflict: null, status: "saved" };
    case "kept_mine":
      if (!state.conflict) return state;
      return { ...rebase(state, state.conflict), dirty: ALL, hold: null, conflict: null };
    case "conflict_shown":
      return { ...state, hold: "conflict", conflict: event.current, status: "conflict" };
    case "draft_restored":
      return {
        ...state,
        // Made on an older version than the page shows: what they changed from is not known here.
        base: event.baseVersion === state.version ? state.base : null,
        version: event.baseVersion,
        dirty: event.fields,
        hold: "refused",
        reason: event.reason,
        status: "error",
      };
    case "draft_kept":
      return event.kept === state.draftKept ? state : { ...state, draftKept: event.kept };
    case "stopped":
      return { ...state, hold: "stopped", dirty: CLEAN };
    case "resumed":
      return { ...state, hold: null };
    case "retried":
      return { ...withFailure(state, null), hold: null, serverFailures: 0, status: anyField(state.dirty) ? state.status : "saved" };
  }
}

/** The session in a box the browser code dispatches to and React subscribes to (useSyncExternalStore). */
export function createEditorSessionStore(initial: EditorSession) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    /** Applies the event at once (saves read the new state in the same tick) and returns the new state. */
    dispatch(event: EditorSessionEvent): EditorSession {
      const next = editorSessionReducer(state, event);
      if (next !== state) {
        state = next;
        for (const listener of listeners) listener();
      }
      return state;
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
