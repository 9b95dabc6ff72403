import { NOTE_CONTENT_MAX_BYTES } from "@/lib/body/document";
import type { TNote } from "@/lib/notes/schemas";
import { INITIAL_SETTINGS, settingsOf, type NoteSettings } from "@/lib/notes/settings";
import type { TTag } from "@/lib/tags/schemas";

/** A note as the editor holds it: the wire form plus the version its saves are conditional on. */
export type EditorNote = Pick<TNote, "id" | "title" | "content" | "contentText" | "updatedAt"> & NoteSettings & { version: number; tags: TTag[] };

export function toEditorNote(note: TNote, version: number): EditorNote {
  const { id, title, content, contentText, updatedAt, tags } = note;
  return { id, title, content, contentText, ...settingsOf(note), updatedAt, tags, version };
}

/**
 * What a save answers the editor. Failures are values, not exceptions: only a
 * lost connection (or a server too broken to answer) throws.
 */
export type SaveNoteResult =
  | { ok: true; version: number; updatedAt: string; tags: TTag[] }
  /** Someone else wrote since `version`: nothing was written; `current` is the note as it is now. */
  | { ok: false; error: "conflict"; current: EditorNote }
  /**
   * Nothing was written. `invalid`: the server refuses this note as it is (too
   * large, say), so saving it again unchanged cannot help. `server`: the server
   * failed (its database, a bug); the same save may work later.
   */
  | { ok: false; error: "not_found" | "signed_out" | "invalid" | "server"; message: string };

export type DeleteNoteResult = { ok: true } | SaveNoteResult & { ok: false };

/**
 * How often an open, visible note asks whether it was written elsewhere
 * (components/editor/live-merge.ts). The question is a conditional GET: while
 * nothing changed the answer is a 304 with no body, so a tab left open costs
 * a few hundred bytes a check.
 */
export const LIVE_CHECK_MS = 2500;

/** Query parameter that marks a new note's address until its first save creates it (the editor then removes it). */
export const NEW_NOTE_PARAM = "new";

/** A new note, not stored until its first save: the id is made in the browser, the first save creates the note with it. */
export function newEditorNote(id: string): EditorNote {
  return { id, title: UNTITLED, content: [], contentText: "", ...INITIAL_SETTINGS, tags: [], updatedAt: new Date().toISOString(), version: 0 };
}

/** What was typed into a new note before its editor existed, and where the caret was. */
export type TypedDraft = { title: string; body: string; focus: "title" | "body"; selectionStart: number; selectionEnd: number };

/** Title stored for a note whose title field is left empty. */
export const UNTITLED = "Untitled";

/** Why a body over NOTE_CONTENT_MAX_BYTES is not saved, in the browser's words (said by the browser and the server alike). */
export function contentTooLargeMessage(bytes: number, maxBytes = NOTE_CONTENT_MAX_BYTES): string {
  const mb = (value: number) => `${(value / 1_000_000).toFixed(2)} MB`;
  return `This note is too large to save: its body is ${mb(bytes)}, and a note can hold at most ${mb(maxBytes)}. Split it into smaller notes (or remove a large table or pasted text) to save again.`;
}
