import type { NoteDraft } from "@/lib/notes/editor-session";
import { validSettings } from "@/lib/notes/settings";

// What a person changed in a note and has not had saved yet (NoteDraft, lib/notes/editor-session.ts),
// kept in this browser's localStorage so that a refused save, a crash or a closed tab never loses it.

const PREFIX = "notes:draft:";

const key = (noteId: string) => `${PREFIX}${noteId}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage disabled (privacy settings): drafts are kept on the page only.
    return null;
  }
}

/**
 * Writes the draft; false when the browser would not keep it (storage full or
 * disabled). `contentJson`, the body already serialized, is stored as `content`.
 */
export function writeDraft(draft: Omit<NoteDraft, "content">, contentJson?: string): boolean {
  const store = storage();
  if (!store) return false;
  const json = JSON.stringify(draft);
  try {
    store.setItem(key(draft.noteId), contentJson === undefined ? json : `${json.slice(0, -1)},"content":${contentJson}}`);
    return true;
  } catch {
    return false;
  }
}

export function readDraft(noteId: string): NoteDraft | null {
  const raw = storage()?.getItem(key(noteId));
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as NoteDraft;
    if (draft.noteId !== noteId || !Number.isInteger(draft.baseVersion)) return null;
    if (draft.title !== undefined && typeof draft.title !== "string") return null;
    if (draft.content !== undefined && !Array.isArray(draft.content)) return null;
    if (draft.tags !== undefined && !Array.isArray(draft.tags)) return null;
    if (!validSettings(draft)) return null;
    return draft;
  } catch {
    return null;
  }
}

export function removeDraft(noteId: string): void {
  try {
    storage()?.removeItem(key(noteId));
  } catch {
    // Nothing to do: a draft that stays is offered again and can be discarded then.
  }
}
