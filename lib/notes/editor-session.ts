import { contentToText } from "@/lib/body/content-text";
import { unshowableBody } from "@/lib/body/document";
import type { BlockConflict } from "@/lib/body/merge";
import { UNTITLED, type EditorNote } from "@/lib/notes/editor-types";
import { givenSettings, mergeSettings, SETTING_KEYS, settingsOf, settingsWhere, type NoteSettings, type SettingKey } from "@/lib/notes/settings";
import type { TTag } from "@/lib/tags/schemas";

/**
 * One open note, as a value: what the page shows (title, tags, settings), what is
 * changed and not sent, the save on its way, the version saves are
 * conditional on, why saving waits (a conflict, a refusal, a lost
 * connection), and the page's modes (a restored draft, a read-only body, the
 * history or the delete dialog open). Every step is an event through
 * `editorSessionReducer`; the browser parts (the block editor, timers, the
 * save request, the draft in localStorage) live in
 * components/editor/note-session.ts and only act on what the state says. The
 * body is the block editor's own document once the editor exists; until then
 * it is `body.content` here, the body the editor opens with.
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

export type NoteField = "title" | "content" | "tags" | SettingKey;
export const NOTE_FIELDS: readonly NoteField[] = ["title", "content", "tags", ...SETTING_KEYS];
export type Fields = Record<NoteField, boolean>;
/** A note's values the page shows beside its body. */
type NoteValues = { title: string; tags: TTag[] } & NoteSettings;
/** Why saving waits for the person: until then changes are only kept in the browser. */
type Hold = "conflict" | "signed_out" | "not_found" | "refused" | "stopped" | null;
/** The note as the server has it at the version saves are conditional on: the base a write made elsewhere is merged against. */
type NoteBase = NoteValues & { content: unknown };

/**
 * Unsaved changes kept in this browser (localStorage, components/editor/note-draft.ts)
 * until a save succeeds: only the fields that changed, and the version they were made on.
 */
export type NoteDraft = {
  noteId: string;
  baseVersion: number;
  title?: string;
  content?: unknown[];
  tags?: TTag[];
  savedAt: string;
  /** Why the changes are not saved, if a save was refused. */
  reason?: string;
} & Partial<NoteSettings>;

/** What was merged that the person has to pick: a block (see lib/body/merge.ts) or the title, both changed here and elsewhere. */
export type MergeChoice = { key: string; conflict: BlockConflict } | { key: "title"; title: { mine: string; theirs: string } };

/** Where the body is: on the page until the block editor exists (the body it opens with), then in the editor. */
type Body = { in: "page"; content: unknown; contentText: string } | { in: "editor" };

const fieldsWhere = (holds: (field: NoteField) => boolean) => Object.fromEntries(NOTE_FIELDS.map((field) => [field, holds(field)])) as Fields;
const CLEAN = fieldsWhere(() => false);
const ALL = fieldsWhere(() => true);
export const anyField = (fields: Fields) => NOTE_FIELDS.some((field) => fields[field]);
/** The fields changed in either. */
export const unionFields = (a: Fields, b: Fields) => Object.fromEntries(NOTE_FIELDS.map((field) => [field, a[field] || b[field]])) as Fields;

const MAX_RETRY_MS = 30_000;
/** A failing server is asked again this many times (after 2 s, then 6 s), then saving waits for the person. */
const SERVER_RETRIES = 2;

export type EditorSession = {
  noteId: string;
  /** The note's version the next save is conditional on; 0 for a new note nothing has saved yet (its first save creates it). */
  version: number;
  /** Null when not known: unsaved changes from an earlier visit made on an older version. */
  base: NoteBase | null;
  updatedAt: string;
  /** The title, tags and settings as the page shows them. */
  values: NoteValues;
  body: Body;
  /** Tags the person can pick from. */
  knownTags: TTag[];
  /** The browser's draft was looked for: the body's editor may be made (with a restored body, if any). */
  opened: boolean;
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
  /** Unsaved changes from an earlier visit, shown again: when they were kept, and whether the note changed since. */
  restored: { savedAt: string; changedSince: boolean } | null;
  /**
   * Why the body on screen is not the stored body as it is (blocks the editor
   * does not know, shown as their text), or null. The body is read-only then
   * (`bodyReadOnly`), until the person chooses to edit it as shown.
   */
  unshown: string | null;
  editAsShown: boolean;
  /** The stored text, when an API client changed it without the body (the editor shows the body). */
  divergentText: string | null;
  /** What a merge left for the person to pick. */
  choices: MergeChoice[];
  dialog: "history" | "delete" | null;
  deleting: boolean;
  /** Why the last delete or discard, or the last file added, did not go through. */
  actionError: string | null;
  uploadError: string | null;
};

export type EditorSessionEvent =
  /** The browser's draft was looked for as the page opened (null: none). Only the first counts: a remount finds the same. */
  | { type: "opened"; draft: NoteDraft | null }
  /** The block editor exists and holds the body from now on. */
  | { type: "editor_ready" }
  /** The person changed a field (the body, in the editor). */
  | { type: "changed"; field: NoteField }
  /** The person changed the title, tags or a setting. */
  | { type: "edited"; values: Partial<NoteValues> }
  | { type: "tag_created"; tag: TTag }
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
   * into what is on screen (`merged` dispatched), so saving goes on.
   */
  | { type: "save_conflicted"; current: EditorNote; merged: boolean }
  | { type: "save_failed"; error: "server" | "invalid" | "signed_out" | "not_found"; message: string }
  /** A write made elsewhere was merged into the body on screen (block conflicts left to pick); the title, tags and settings merge here. */
  | { type: "merged"; current: EditorNote; conflicts: BlockConflict[] }
  /** The person took the note as it is now (`current`), dropping what is unsaved here. */
  | { type: "remote_accepted"; current: EditorNote }
  /** The person keeps theirs over the newer version. */
  | { type: "kept_mine" }
  /** A newer version that cannot be merged while something here is unsaved. */
  | { type: "conflict_shown"; current: EditorNote }
  /** The browser did or did not store the unsaved changes. */
  | { type: "draft_kept"; kept: boolean }
  /** The note is being deleted: nothing more is saved. */
  | { type: "stopped" }
  | { type: "resumed" }
  /** The person asks to try again. */
  | { type: "retried" }
  | { type: "choice_closed"; key: string }
  | { type: "dialog"; dialog: EditorSession["dialog"] }
  | { type: "delete_started" }
  | { type: "delete_failed"; message: string | null }
  | { type: "action_failed"; message: string }
  | { type: "upload_failed"; message: string | null }
  /** The editor could not load the body's blocks and shows its text: why. */
  | { type: "body_unshown"; reason: string }
  | { type: "edit_as_shown" }
  /** The person chose between the formatted body and the text an API client stored without it. */
  | { type: "divergent_settled" };

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The stored text when it is not the text of the stored body (an API client
 * changed contentText without content): saving the body would replace it.
 */
function divergentTextOf(note: Pick<EditorNote, "content" | "contentText">): string | null {
  // No text to keep (a body written without contentText): the next save writes the body's text, nothing is lost.
  if (!Array.isArray(note.content) || note.content.length === 0 || !normalize(note.contentText)) return null;
  return normalize(contentToText(note.content)) === normalize(note.contentText) ? null : note.contentText;
}

const valuesOf = (note: NoteValues): NoteValues => ({ title: note.title, tags: note.tags, ...settingsOf(note) });
const baseOf = (note: EditorNote): NoteBase => ({ ...valuesOf(note), content: note.content });
const byName = (tags: TTag[]) => [...tags].sort((a, b) => a.name.localeCompare(b.name));
const withTags = (known: TTag[], more: TTag[]) => byName([...known, ...more.filter((tag) => !known.some((other) => other.id === tag.id))]);

export function initialEditorSession(note: EditorNote, knownTags: TTag[] = []): EditorSession {
  return {
    noteId: note.id,
    version: note.version,
    base: baseOf(note),
    updatedAt: note.updatedAt,
    values: valuesOf(note),
    body: { in: "page", content: note.content, contentText: note.contentText },
    knownTags: withTags(knownTags, note.tags),
    opened: false,
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
    restored: null,
    unshown: unshowableBody(note.content),
    editAsShown: false,
    divergentText: divergentTextOf(note),
    choices: [],
    dialog: null,
    deleting: false,
    actionError: null,
    uploadError: null,
  };
}

/** Something unsaved: changed here, or on its way and not answered. */
export const hasUnsaved = (state: EditorSession) => anyField(state.dirty) || state.sending !== null;

/** The body is shown only as its text and nothing typed may replace what is stored, until the person edits it as shown. */
export const bodyReadOnly = (state: EditorSession) => state.unshown !== null && !state.editAsShown;

/** Text as paragraphs, a line each: how a body given only as text is shown. */
export const paragraphsOf = (text: string) => text.split("\n").map((line) => ({ type: "paragraph", content: line }));

/**
 * The body as the person sees it: the block editor's document once the
 * editor holds the body, and before that the body it opens with (a restored
 * draft's, or the note's). Saves and drafts take the body from here, so they
 * never carry a body the person was not shown, nor an empty one for a body
 * not yet in an editor.
 */
export function visibleBody(state: EditorSession, editorDocument: unknown[] | null): unknown[] {
  const { body } = state;
  if (body.in === "editor") {
    if (!editorDocument) throw new Error("The body is in the block editor, and no editor document was given");
    return editorDocument;
  }
  return Array.isArray(body.content) && body.content.length > 0 ? body.content : paragraphsOf(body.contentText);
}

/** The draft that keeps `fields` of what the page shows in the browser (the body being `body`, see visibleBody). */
export function draftOf(state: EditorSession, fields: Fields, body: unknown[], savedAt: string): NoteDraft {
  const { version, reason, values } = state;
  return {
    noteId: state.noteId,
    baseVersion: version,
    ...(fields.title ? { title: values.title } : {}),
    ...(fields.tags ? { tags: values.tags } : {}),
    ...settingsWhere(values, (key) => fields[key]),
    ...(fields.content ? { content: body } : {}),
    savedAt,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** JSON with object keys sorted, so a body compares equal however the database ordered its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** True when every field the draft holds is already what the saved note has (it was saved after all). */
export function draftMatches(draft: NoteDraft, note: NoteBase): boolean {
  if (draft.title !== undefined && (draft.title.trim() || UNTITLED) !== note.title) return false;
  if (SETTING_KEYS.some((key) => draft[key] !== undefined && draft[key] !== note[key])) return false;
  if (draft.tags !== undefined) {
    const ids = (tags: TTag[]) => tags.map((tag) => tag.id).sort().join(",");
    if (ids(draft.tags) !== ids(note.tags)) return false;
  }
  if (draft.content !== undefined && canonical(draft.content) !== canonical(note.content)) return false;
  return true;
}

/** Tags merged three ways: their tags, plus the ones the person added, minus the ones the person removed. */
function mergeTags(base: readonly TTag[], mine: readonly TTag[], theirs: readonly TTag[]): TTag[] {
  const ids = (tags: readonly TTag[]) => new Set(tags.map((tag) => tag.id));
  const [baseIds, mineIds, theirIds] = [ids(base), ids(mine), ids(theirs)];
  const added = mine.filter((tag) => !baseIds.has(tag.id) && !theirIds.has(tag.id));
  const removed = new Set(base.filter((tag) => !mineIds.has(tag.id)).map((tag) => tag.id));
  return byName([...theirs, ...added].filter((tag) => !removed.has(tag.id)));
}

const withFailure = (state: EditorSession, failure: SaveFailure | null): EditorSession => ({ ...state, failure, reason: failure?.message });

/** Saving waits for the person, with the reason shown. */
const refuse = (state: EditorSession, failure: SaveFailure, hold: Hold = "refused"): EditorSession => ({ ...withFailure(state, failure), hold, status: "error" });

const rebase = (state: EditorSession, current: EditorNote): EditorSession => ({
  ...state,
  version: current.version,
  base: baseOf(current),
  updatedAt: current.updatedAt,
  knownTags: withTags(state.knownTags, current.tags),
});

/** The save on its way was answered without storing it: its fields are pending again. */
const answered = (state: EditorSession): EditorSession => ({ ...state, dirty: unionFields(state.dirty, state.sending ?? CLEAN), sending: null, again: null });

/** Fields changed by the person: pending, and saving shown unless it waits. */
function changed(state: EditorSession, fields: readonly NoteField[]): EditorSession {
  // A refused note that changed may be accepted now: one more try, after the pause.
  const hold = state.hold === "refused" ? null : state.hold;
  const status = hold || state.status === "offline" || state.status === "error" ? state.status : "saving";
  // The same fields again, nothing else to say: the same state, so nothing renders again.
  if (fields.every((field) => state.dirty[field]) && hold === state.hold && status === state.status) return state;
  const dirty = { ...state.dirty };
  for (const field of fields) dirty[field] = true;
  return { ...state, dirty, hold, status };
}

/** The page shows the note as it is now (`current`), nothing unsaved. */
function shown(state: EditorSession, current: EditorNote): EditorSession {
  return {
    ...withFailure(rebase(state, current), null),
    values: valuesOf(current),
    // An editor that exists is given the body by the page (NoteSession); until then it opens with it.
    body: state.body.in === "editor" ? state.body : { in: "page", content: current.content, contentText: current.contentText },
    dirty: CLEAN,
    hold: null,
    serverFailures: 0,
    conflict: null,
    status: "saved",
    restored: null,
    unshown: unshowableBody(current.content),
    editAsShown: false,
    divergentText: divergentTextOf(current),
    choices: [],
    actionError: null,
  };
}

function opened(state: EditorSession, draft: NoteDraft | null): EditorSession {
  if (state.opened) return state;
  if (!draft || !state.base || draftMatches(draft, state.base)) return { ...state, opened: true };
  const { values } = state;
  return {
    ...state,
    opened: true,
    values: { ...values, title: draft.title ?? values.title, tags: draft.tags ?? values.tags, ...givenSettings(draft) },
    knownTags: withTags(state.knownTags, draft.tags ?? []),
    // The editor opens with the restored body; it comes from the editor, so it shows as it is.
    ...(draft.content ? { body: { in: "page" as const, content: draft.content, contentText: "" }, unshown: null } : {}),
    // Made on an older version than the page shows: what they changed from is not known here.
    base: draft.baseVersion === state.version ? state.base : null,
    version: draft.baseVersion,
    dirty: fieldsWhere((field) => draft[field] !== undefined),
    hold: "refused",
    reason: draft.reason,
    status: "error",
    restored: { savedAt: draft.savedAt, changedSince: draft.baseVersion !== state.version },
    divergentText: null,
  };
}

/** A write made elsewhere merged into what is on screen: each of title, tags and every setting is theirs unless the person changed it. */
function merged(state: EditorSession, current: EditorNote, conflicts: BlockConflict[]): EditorSession {
  const { base, values: mine } = state;
  if (!base) return state;
  const values = {
    title: mine.title === base.title ? current.title : mine.title,
    tags: mergeTags(base.tags, mine.tags, current.tags),
    ...mergeSettings(settingsOf(base), settingsOf(mine), settingsOf(current)),
  };
  const titleChoice: MergeChoice[] =
    values.title !== current.title && current.title !== base.title ? [{ key: "title", title: { mine: values.title, theirs: current.title } }] : [];
  const fresh = [...titleChoice, ...conflicts.map((conflict) => ({ key: `${conflict.kind}:${conflict.id}`, conflict }))];
  const choices = [...state.choices.filter((choice) => !fresh.some((other) => other.key === choice.key)), ...fresh];
  return { ...rebase(state, current), values, choices, divergentText: null };
}

export function editorSessionReducer(state: EditorSession, event: EditorSessionEvent): EditorSession {
  switch (event.type) {
    case "opened":
      return opened(state, event.draft);
    case "editor_ready":
      return state.body.in === "editor" ? state : { ...state, body: { in: "editor" } };
    case "changed":
      return changed(state, [event.field]);
    case "edited": {
      const fields = (Object.keys(event.values) as (keyof NoteValues)[]).filter((field) => event.values[field] !== undefined);
      if (fields.length === 0) return state;
      return { ...changed(state, fields), values: { ...state.values, ...event.values } };
    }
    case "tag_created":
      return { ...state, knownTags: withTags(state.knownTags, [event.tag]) };
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
        restored: null,
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
    case "merged":
      return merged(state, event.current, event.conflicts);
    case "remote_accepted":
      return shown(state, event.current);
    case "kept_mine":
      if (!state.conflict) return state;
      return { ...rebase(state, state.conflict), dirty: ALL, hold: null, conflict: null };
    case "conflict_shown":
      return { ...state, hold: "conflict", conflict: event.current, status: "conflict" };
    case "draft_kept":
      return event.kept === state.draftKept ? state : { ...state, draftKept: event.kept };
    case "stopped":
      return { ...state, hold: "stopped", dirty: CLEAN };
    case "resumed":
      return { ...state, hold: null };
    case "retried":
      return { ...withFailure(state, null), hold: null, serverFailures: 0, status: anyField(state.dirty) ? state.status : "saved", restored: null };
    case "choice_closed":
      return { ...state, choices: state.choices.filter((choice) => choice.key !== event.key) };
    case "dialog":
      return { ...state, dialog: event.dialog };
    case "delete_started":
      return { ...state, deleting: true, actionError: null };
    case "delete_failed":
      return { ...state, deleting: false, dialog: null, actionError: event.message };
    case "action_failed":
      return { ...state, actionError: event.message };
    case "upload_failed":
      return { ...state, uploadError: event.message };
    case "body_unshown":
      return { ...state, unshown: event.reason };
    case "edit_as_shown":
      return { ...state, editAsShown: true };
    case "divergent_settled":
      return { ...state, divergentText: null };
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
