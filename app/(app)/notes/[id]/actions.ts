"use server";

import { z } from "zod";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { contentToText } from "@/lib/editor/content-text";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/editor/document";
import { toEditorNote, UNTITLED, type DeleteNoteResult, type EditorNote, type SaveNoteResult } from "@/lib/editor/types";
import { AppError, MESSAGES } from "@/lib/errors";
import { parseNoteEtag } from "@/lib/notes/etag";
import { deleteNote, updateNote } from "@/lib/notes/mutations";
import { NOTE_TITLE_MAX, ZNoteSchema, ZUpdateNoteSchema, type TNote } from "@/lib/notes/schemas";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { getNoteVersion } from "@/lib/notes/version";

const ZSaveNoteSchema = z.object({
  id: z.guid(),
  /** The version the editor's text is based on: the write happens only if the note is still there. */
  version: z.number().int().min(1),
  title: z.string().max(NOTE_TITLE_MAX * 2).optional(),
  content: z.array(z.record(z.string(), z.unknown())).optional(),
  tagIds: z.array(z.guid()).max(100).optional(),
});
export type SaveNoteInput = z.input<typeof ZSaveNoteSchema>;

const signedOut = { ok: false, error: "signed_out", message: "You have been signed out. Sign in again to keep saving." } as const;
const notFound = { ok: false, error: "not_found", message: "This note no longer exists: it was deleted, perhaps by one of your agents." } as const;

/**
 * Saves the editor's changes, only on top of the version the editor has: if
 * anyone (an agent through the API, another tab) wrote since, nothing is
 * written and the current note comes back for the person to decide.
 */
export async function saveNoteAction(raw: SaveNoteInput): Promise<SaveNoteResult> {
  const user = await getCurrentUser();
  if (!user) return signedOut;
  const parsed = ZSaveNoteSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "invalid", message: "The note could not be saved: the editor sent something unexpected." };
  const { id, version, title, content, tagIds } = parsed.data;
  if (content !== undefined && JSON.stringify(content).length > NOTE_CONTENT_MAX_BYTES) {
    return { ok: false, error: "invalid", message: "This note is too large to save. Split it into smaller notes." };
  }
  const update = ZUpdateNoteSchema.safeParse({
    title: title === undefined ? undefined : title.trim() || UNTITLED,
    content,
    // Derived here from what is stored, never taken from the browser.
    contentText: content === undefined ? undefined : contentToText(content),
    tagIds,
  });
  if (!update.success) return { ok: false, error: "invalid", message: `The title can be at most ${NOTE_TITLE_MAX} characters.` };
  try {
    const saved = await updateNote(await getDb(), { id, userId: user.id, input: update.data, ifVersion: version });
    return { ok: true, version: saved.version, updatedAt: saved.note.updatedAt, tags: saved.note.tags };
  } catch (err) {
    return writeFailure(err);
  }
}

/** Deletes the note, only at the version the person saw (so an agent's newer text is never deleted unseen). */
export async function deleteNoteAction(raw: { id: string; version: number }): Promise<DeleteNoteResult> {
  const user = await getCurrentUser();
  if (!user) return signedOut;
  const parsed = z.object({ id: z.guid(), version: z.number().int().min(1) }).safeParse(raw);
  if (!parsed.success) return notFound;
  try {
    await deleteNote(await getDb(), { id: parsed.data.id, userId: user.id, ifVersion: parsed.data.version });
    return { ok: true };
  } catch (err) {
    return writeFailure(err);
  }
}

/** The note's current version, for an open editor to notice writes made elsewhere. */
export async function checkNoteVersionAction(id: string): Promise<{ version: number; updatedAt: string } | null> {
  const user = await getCurrentUser();
  if (!user || !z.guid().safeParse(id).success) return null;
  return getNoteVersion(await getDb(), { id, userId: user.id });
}

function writeFailure(err: unknown): SaveNoteResult & { ok: false } {
  if (err instanceof AppError && err.code === "PRECONDITION_FAILED") {
    const note = ZNoteSchema.parse(err.fields?.note) as TNote;
    const version = parseNoteEtag(err.headers?.ETag ?? "") ?? 0;
    return { ok: false, error: "conflict", current: toEditorNote(note, version) };
  }
  if (err instanceof AppError && err.code === "NOT_FOUND" && err.userMessage === MESSAGES.noteNotFound) return notFound;
  throw err;
}

/** The note as it is now, for an open editor to show someone else's newer version. */
export async function loadNoteAction(id: string): Promise<EditorNote | null> {
  const user = await getCurrentUser();
  if (!user || !z.guid().safeParse(id).success) return null;
  try {
    const { note, version } = await getNoteOrThrow(await getDb(), { id, userId: user.id });
    return toEditorNote(note, version);
  } catch (err) {
    if (err instanceof AppError && err.code === "NOT_FOUND") return null;
    throw err;
  }
}
