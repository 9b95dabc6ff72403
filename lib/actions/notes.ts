"use server";

// Server actions for the notes pages and the editor; each re-checks who is
// signed in, as a route re-checks its token.

import { randomUUID } from "node:crypto";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { runAction } from "@/lib/actions/run-action";
import { getNoteOperation, deleteNoteOperation } from "@/lib/operations/notes";
import { getRevisionOperation, listRevisionsOperation, restoreRevisionOperation } from "@/lib/operations/revisions";
import { contentToText } from "@/lib/body/content-text";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/body/document";
import { contentTooLargeMessage, NEW_NOTE_PARAM, toEditorNote, UNTITLED, type DeleteNoteResult, type EditorNote, type SaveNoteResult } from "@/lib/notes/editor-types";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { parseNoteEtag } from "@/lib/notes/etag";
import { createNote, updateNote, type VersionedNote } from "@/lib/notes/mutations";
import { NOTE_TITLE_MAX, ZListNotesQuerySchema, ZNoteSchema, ZUpdateNoteSchema, type TNote } from "@/lib/notes/schemas";
import { listTagsWithNoteCounts, type TagWithCount } from "@/lib/tags/queries";
import { listNoteRowGroups, type NoteRowGroups } from "@/lib/notes/rows";
import { personAuthor } from "@/lib/db/author";
import { toPlainJson, toStorableString } from "@/lib/db/storable-text";
import { listRevisionChanges, type RevisionChangeInfo } from "@/lib/revisions/queries";
import type { TRevision, TRevisionList } from "@/lib/revisions/schemas";

/**
 * "New note" before the page has hydrated (the form's own submit): opens a new
 * note's address. Nothing is stored until its first save (saveNoteAction).
 */
export async function createNoteAction(): Promise<void> {
  redirect(`/notes/${randomUUID()}?${NEW_NOTE_PARAM}=1`);
}

const ZSaveNoteSchema = z.object({
  id: z.guid(),
  /**
   * The version the editor's text is based on: the write happens only if the
   * note is still there. 0 for a new note: this save creates it, with `id`.
   */
  version: z.number().int().min(0),
  /** The editor session the save comes from: the history joins saves into one version only within one (see personAuthor). */
  session: z.guid(),
  title: z.string().max(NOTE_TITLE_MAX * 2).optional(),
  content: z.array(z.record(z.string(), z.unknown())).optional(),
  tagIds: z.array(z.guid()).max(100).optional(),
  pinned: z.boolean().optional(),
});
export type SaveNoteInput = z.input<typeof ZSaveNoteSchema>;

const signedOut = { ok: false, error: "signed_out", message: "You have been signed out. Sign in again to keep saving." } as const;
const notFound = { ok: false, error: "not_found", message: "This note no longer exists: it was deleted, perhaps by one of your agents." } as const;

/**
 * Saves the editor's changes, only on top of the version the editor has: if
 * anyone (an agent through the API, another tab) wrote since, nothing is
 * written and the current note comes back for the person to decide. Every
 * failure comes back as a value with the reason to show, never as a thrown
 * error (which the browser could not tell apart from a lost connection).
 */
export async function saveNoteAction(raw: SaveNoteInput): Promise<SaveNoteResult> {
  try {
    return await saveNote(raw);
  } catch (err) {
    return writeFailure(err, "note.save_failed");
  }
}

async function saveNote(raw: SaveNoteInput): Promise<SaveNoteResult> {
  const user = await getCurrentUser();
  if (!user) return signedOut;
  const parsed = ZSaveNoteSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "invalid", message: `The note could not be saved: the editor sent something unexpected (${describeIssue(parsed.error)}).` };
  const { id, version, session, tagIds, pinned } = parsed.data;
  // What a person can type or paste but a database cannot hold (a NUL, half of
  // an emoji) is dropped rather than refusing the whole note over an invisible character.
  const title = parsed.data.title === undefined ? undefined : toStorableString(parsed.data.title);
  const content = parsed.data.content === undefined ? undefined : (toPlainJson(parsed.data.content, toStorableString) as Record<string, unknown>[]);
  if (content !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(content));
    if (bytes > NOTE_CONTENT_MAX_BYTES) return { ok: false, error: "invalid", message: contentTooLargeMessage(bytes) };
  }
  const update = ZUpdateNoteSchema.safeParse({
    title: title === undefined ? undefined : title.trim() || UNTITLED,
    content,
    // Derived here from what is stored, never taken from the browser.
    contentText: content === undefined ? undefined : contentToText(content),
    tagIds,
    pinned,
  });
  if (!update.success) return { ok: false, error: "invalid", message: refusalMessage(update.error) };
  const author = personAuthor(user, session);
  const saved =
    version === 0
      ? await createNote(await getDb(), { userId: user.id, author, id, input: { ...update.data, title: update.data.title ?? UNTITLED, content: update.data.content ?? [], contentText: update.data.contentText ?? "" } })
      : await updateNote(await getDb(), { id, userId: user.id, author, input: update.data, ifVersion: version });
  return { ok: true, version: saved.version, updatedAt: saved.note.updatedAt, tags: saved.note.tags };
}

/** Deletes the note, only at the version the person saw (so an agent's newer text is never deleted unseen). */
export async function deleteNoteAction(raw: { id: string; version: number }): Promise<DeleteNoteResult> {
  const result = await runAction<unknown, SaveNoteResult & { ok: false }>(deleteNoteOperation, { ids: { id: raw.id }, ifVersion: raw.version }, { signedOut, invalid: () => notFound, fail: (err) => writeFailure(err, "note.delete_failed") });
  return result.ok ? { ok: true } : result;
}

function writeFailure(err: unknown, event: string): SaveNoteResult & { ok: false } {
  if (isAppError(err, "NOTE_MODIFIED")) {
    const note = ZNoteSchema.parse(err.fields?.note) as TNote;
    const version = parseNoteEtag(err.headers?.ETag ?? "") ?? 0;
    return { ok: false, error: "conflict", current: toEditorNote(note, version) };
  }
  if (isAppError(err, "NOTE_NOT_FOUND")) return notFound;
  // A new note's id another account (or the trash) holds: never said whose.
  if (isAppError(err, "NOTE_EXISTS")) {
    return { ok: false, error: "invalid", message: "This note could not be created: its id is already in use. Copy your text into a new note." };
  }
  if (err instanceof AppError && err.status < 500) {
    // The data layer refused the note itself (a content limit, say): the same save would be refused again.
    const details = (err.fields?.details ?? null) as { formErrors?: string[]; fieldErrors?: Record<string, string[]> } | null;
    const detail = details?.formErrors?.[0] ?? Object.values(details?.fieldErrors ?? {}).flat()[0];
    return { ok: false, error: "invalid", message: `The server refused to save this note: ${detail ?? err.userMessage}.` };
  }
  // Ours to fix, not the person's: logged with a reference they can quote.
  const reference = randomUUID().slice(0, 8);
  log.error(event, { reference, code: err instanceof AppError ? err.code : undefined, cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  const unavailable = err instanceof AppError && err.status === 503;
  return {
    ok: false,
    error: "server",
    message: unavailable
      ? `The server is overloaded or its database is unavailable, so your changes were not saved (reference ${reference}).`
      : `The server failed while saving your changes (an error on our side, reference ${reference}).`,
  };
}

/** A validation failure in words: which part of the note, and why. */
function refusalMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "The server refused to save this note.";
  const field = issue.path[0];
  if (field === "title" && issue.code === "too_big") return `The title can be at most ${NOTE_TITLE_MAX} characters.`;
  const what = field === "title" ? "its title" : field === "content" || field === "contentText" ? "its body" : field === "tagIds" ? "its tags" : "it";
  return `The server refused to save this note because of ${what}: ${issue.message}.`;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "invalid input";
}

/** The note as it is now, for an open editor to show someone else's newer version. */
export async function loadNoteAction(id: string): Promise<EditorNote | null> {
  const fail = (err: unknown) => {
    if (isAppError(err, "INVALID_NOTE_ID", "NOTE_NOT_FOUND")) return null;
    throw err;
  };
  const result = await runAction<{ noteJson: string; version: number }, null>(getNoteOperation, { ids: { id }, query: { format: "json" } }, { signedOut: null, fail });
  return result && toEditorNote(JSON.parse(result.data.noteJson) as TNote, result.data.version);
}

/** How many notes of each group (pinned, the rest) the pane beside an open note lists; the notes page has them all. */
const PANE_NOTES_MAX = 50;

export type NotesPane = NoteRowGroups & { tags: TagWithCount[] };

const ZPaneQuerySchema = z.object({ q: ZListNotesQuerySchema.shape.search, tag: ZListNotesQuerySchema.shape.tagId });

/**
 * The notes for the list beside an open note (desktop), as the notes page
 * lists them (listNoteRowGroups): pinned first, then the rest, most recently
 * updated first, or with a search the best matches first; as rows of text
 * only, whatever the notes' sizes.
 */
export async function listPaneNotesAction(raw: { q?: string; tag?: string }): Promise<({ ok: true } & NotesPane) | { ok: false; message: string }> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: signedOut.message };
  const parsed = ZPaneQuerySchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: `Your notes could not be listed: ${describeIssue(parsed.error)}.` };
  const { q: search, tag: tagId } = parsed.data;
  try {
    const db = await getDb();
    const [groups, tags] = await Promise.all([
      listNoteRowGroups(db, { userId: user.id, search, tagId, sort: "relevance", pinnedLimit: PANE_NOTES_MAX, limit: PANE_NOTES_MAX, offset: 0 }),
      listTagsWithNoteCounts(db, { userId: user.id }),
    ]);
    return { ok: true, ...groups, tags };
  } catch (err) {
    const reference = randomUUID().slice(0, 8);
    log.error("notes.pane_failed", { reference, userId: user.id, cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    return { ok: false, message: `Your notes could not be listed: the server failed (reference ${reference}).` };
  }
}

const HISTORY_UNAVAILABLE = "The history could not be loaded: check your connection and try again.";

/** A page of the note's history for the history panel, newest first, with what changed in each version since the one before. */
export async function listRevisionsAction(
  raw: { noteId: string; cursor?: string },
): Promise<({ ok: true; changes: Record<string, RevisionChangeInfo> } & TRevisionList) | { ok: false; message: string }> {
  const page = await runAction<TRevisionList, HistoryFailure>(listRevisionsOperation, { ids: { id: raw.noteId }, query: { limit: 30, cursor: raw.cursor } }, HISTORY);
  if (!page.ok) return page;
  // What each version changed: the panel's own reading, beside the operation's page.
  return readHistory(async () => {
    const { caller } = page;
    const changes = await listRevisionChanges(caller.db, { noteId: raw.noteId.toLowerCase(), userId: caller.userId, revisions: page.data.revisions });
    return { ok: true as const, ...page.data, changes };
  });
}

/** One revision with its content, for the history panel to compare with the note now. */
export async function getRevisionAction(raw: { noteId: string; revisionId: string }): Promise<{ ok: true; revision: TRevision } | { ok: false; message: string }> {
  const result = await runAction<{ revision: TRevision }, HistoryFailure>(getRevisionOperation, { ids: { id: raw.noteId, revisionId: raw.revisionId }, query: { format: "json" } }, HISTORY);
  return result.ok ? { ok: true, revision: result.data.revision } : result;
}

type HistoryFailure = { ok: false; message: string };

function historyFailure(err: unknown): HistoryFailure {
  if (isAppError(err, "INVALID_NOTE_ID", "INVALID_REVISION_ID", "INVALID_QUERY", "NOTE_NOT_FOUND", "REVISION_NOT_FOUND")) return notFound;
  log.error("note.history_failed", { cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return { ok: false, message: HISTORY_UNAVAILABLE };
}

const HISTORY = { signedOut: { ok: false, message: signedOut.message } as HistoryFailure, fail: historyFailure };

async function readHistory<T>(read: () => Promise<T>): Promise<T | HistoryFailure> {
  try {
    return await read();
  } catch (err) {
    return historyFailure(err);
  }
}

/**
 * Puts the note back as it was at a revision, only on top of the version the
 * editor has (the person's unsaved typing is saved first by the editor): the
 * restore is a new revision, by the person.
 */
export async function restoreRevisionAction(raw: { noteId: string; revisionId: string; version: number }): Promise<{ ok: true; note: EditorNote } | (SaveNoteResult & { ok: false })> {
  const call = { ids: { id: raw.noteId, revisionId: raw.revisionId }, ifVersion: raw.version };
  const restored = await runAction<VersionedNote, SaveNoteResult & { ok: false }>(restoreRevisionOperation, call, { signedOut, invalid: () => notFound, fail: (err) => writeFailure(err, "note.restore_failed") });
  return restored.ok ? { ok: true, note: toEditorNote(restored.data.note, restored.data.version) } : restored;
}
