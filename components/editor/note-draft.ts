import { UNTITLED } from "@/lib/notes/editor-types";
import type { TTag } from "@/lib/tags/schemas";

/**
 * What a person changed in a note and has not had saved yet, kept in this
 * browser's localStorage so that a refused save, a crash or a closed tab never
 * loses it. Only the fields that differ from the saved note are kept.
 */
export type NoteDraft = {
  noteId: string;
  /** The note's version the changes were made on: saving them is conditional on it. */
  baseVersion: number;
  title?: string;
  content?: unknown[];
  tags?: TTag[];
  pinned?: boolean;
  /** When the draft was last written (ISO). */
  savedAt: string;
  /** Why it was not saved, as the person was told, if a save was refused. */
  reason?: string;
};

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
    if (draft.pinned !== undefined && typeof draft.pinned !== "boolean") return null;
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

/** JSON with object keys sorted, so a body compares equal however the database ordered its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** True when every field the draft holds is already what the saved note has (it was saved after all). */
export function draftMatches(draft: NoteDraft, note: { title: string; content: unknown; tags: TTag[]; pinned: boolean }): boolean {
  if (draft.title !== undefined && (draft.title.trim() || UNTITLED) !== note.title) return false;
  if (draft.pinned !== undefined && draft.pinned !== note.pinned) return false;
  if (draft.tags !== undefined) {
    const ids = (tags: TTag[]) => tags.map((tag) => tag.id).sort().join(",");
    if (ids(draft.tags) !== ids(note.tags)) return false;
  }
  if (draft.content !== undefined && canonical(draft.content) !== canonical(note.content)) return false;
  return true;
}
