import type { TNote } from "@/lib/notes/schemas";
import type { TTag } from "@/lib/tags/schemas";

/** A note as the editor holds it: the wire form plus the version its saves are conditional on. */
export type EditorNote = Pick<TNote, "id" | "title" | "content" | "contentText" | "updatedAt"> & { version: number; tags: TTag[] };

export function toEditorNote(note: TNote, version: number): EditorNote {
  return { id: note.id, title: note.title, content: note.content, contentText: note.contentText, updatedAt: note.updatedAt, tags: note.tags, version };
}

/** What a save answers the editor. Failures are values, not exceptions: only a lost connection throws. */
export type SaveNoteResult =
  | { ok: true; version: number; updatedAt: string; tags: TTag[] }
  /** Someone else wrote since `version`: nothing was written; `current` is the note as it is now. */
  | { ok: false; error: "conflict"; current: EditorNote }
  | { ok: false; error: "not_found" | "signed_out" | "invalid"; message: string };

export type DeleteNoteResult = { ok: true } | SaveNoteResult & { ok: false };

/** Title stored for a note whose title field is left empty. */
export const UNTITLED = "Untitled";
