"use server";

// Server actions for the notes pages and the editor; each re-checks who is
// signed in, as a route re-checks its token.

import { randomUUID } from "node:crypto";
import { redirect } from "next/navigation";
import { runAction } from "@/lib/actions/run-action";
import { getNoteOperation, deleteNoteOperation } from "@/lib/operations/notes";
import { getRevisionOperation, listRevisionsOperation, restoreRevisionOperation } from "@/lib/operations/revisions";
import { listPaneNotesOperation, saveNoteOperation, type NotesPane, type SaveNoteBody } from "@/lib/operations/browser";
import { NEW_NOTE_PARAM, toEditorNote, type DeleteNoteResult, type EditorNote, type SaveNoteResult } from "@/lib/notes/editor-types";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { parseNoteEtag } from "@/lib/notes/etag";
import type { VersionedNote } from "@/lib/notes/mutations";
import { ZNoteSchema, type TNote } from "@/lib/notes/schemas";
import { listRevisionChanges, type RevisionChangeInfo } from "@/lib/revisions/queries";
import type { TRevision, TRevisionList } from "@/lib/revisions/schemas";

/**
 * "New note" before the page has hydrated (the form's own submit): opens a new
 * note's address. Nothing is stored until its first save (saveNoteAction).
 */
export async function createNoteAction(): Promise<void> {
  redirect(`/notes/${randomUUID()}?${NEW_NOTE_PARAM}=1`);
}

export type { NotesPane };

export type SaveNoteInput = SaveNoteBody & {
  id: string;
  /** The editor session the save comes from: the history joins saves into one version only within one (see personAuthor). */
  session: string;
};

const signedOut = { ok: false, error: "signed_out", message: "You have been signed out. Sign in again to keep saving." } as const;
const notFound = { ok: false, error: "not_found", message: "This note no longer exists: it was deleted, perhaps by one of your agents." } as const;

/**
 * Saves the editor's changes, only on top of the version the editor has: if
 * anyone (an agent through the API, another tab) wrote since, nothing is
 * written and the current note comes back for the person to decide. Every
 * failure comes back as a value with the reason to show, never as a thrown
 * error (which the browser could not tell apart from a lost connection).
 */
export async function saveNoteAction({ id, session, ...body }: SaveNoteInput): Promise<SaveNoteResult> {
  const saved = await runAction<VersionedNote, SaveNoteResult & { ok: false }>(
    saveNoteOperation,
    { ids: { id }, body, session },
    { signedOut, invalid: unexpectedInput, fail: (err, { userId }) => writeFailure(err, "note.save_failed", { userId, noteId: id }) },
  );
  return saved.ok ? { ok: true, version: saved.data.version, updatedAt: saved.data.note.updatedAt, tags: saved.data.note.tags } : saved;
}

/** What the editor sent is not a save at all: a bug of the page, said in words the person can pass on. */
function unexpectedInput(err: unknown): SaveNoteResult & { ok: false } {
  const detail = firstDetail(err);
  const what = detail ? `${detail.field ?? "input"}: ${detail.message}` : err instanceof AppError ? err.userMessage : "invalid input";
  return { ok: false, error: "invalid", message: `The note could not be saved: the editor sent something unexpected (${what}).` };
}

/** Deletes the note, only at the version the person saw (so an agent's newer text is never deleted unseen). */
export async function deleteNoteAction(raw: { id: string; version: number }): Promise<DeleteNoteResult> {
  const result = await runAction<unknown, SaveNoteResult & { ok: false }>(deleteNoteOperation, { ids: { id: raw.id }, ifVersion: raw.version }, { signedOut, invalid: () => notFound, fail: (err, { userId }) => writeFailure(err, "note.delete_failed", { userId, noteId: raw.id }) });
  return result.ok ? { ok: true } : result;
}

/** A write's failure in the page's words; one that is ours to fix is logged with the ids involved. */
function writeFailure(err: unknown, event: string, ids: Record<string, string>): SaveNoteResult & { ok: false } {
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
    // The note itself is refused (a content limit, say): the same save would be refused again.
    const reason = firstDetail(err)?.message ?? err.userMessage;
    return { ok: false, error: "invalid", message: `The server refused to save this note: ${reason}${reason.endsWith(".") ? "" : "."}` };
  }
  // Ours to fix, not the person's: logged with a reference they can quote.
  const reference = randomUUID().slice(0, 8);
  log.error(event, { reference, ...ids, code: err instanceof AppError ? err.code : undefined, cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  const unavailable = err instanceof AppError && err.status === 503;
  return {
    ok: false,
    error: "server",
    message: unavailable
      ? `The server is overloaded or its database is unavailable, so your changes were not saved (reference ${reference}).`
      : `The server failed while saving your changes (an error on our side, reference ${reference}).`,
  };
}

/** The first reason a refusal (a 400 with details) gives, and the field it is about. */
function firstDetail(err: unknown): { field?: string; message: string } | undefined {
  if (!(err instanceof AppError)) return undefined;
  const details = (err.fields?.details ?? null) as { formErrors?: string[]; fieldErrors?: Record<string, string[]> } | null;
  const form = details?.formErrors?.[0];
  if (form) return { message: form };
  const [field, messages] = Object.entries(details?.fieldErrors ?? {}).find(([, list]) => list.length > 0) ?? [];
  return field === undefined ? undefined : { field, message: messages![0]! };
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

/** The notes for the list beside an open note (listPaneNotesOperation). */
export async function listPaneNotesAction(raw: { q?: string; tag?: string }): Promise<({ ok: true } & NotesPane) | { ok: false; message: string }> {
  const paneFailure = (err: unknown, { userId }: { userId: string }) => {
    const detail = firstDetail(err);
    if (detail) return { ok: false as const, message: `Your notes could not be listed: ${detail.field ?? "input"}: ${detail.message}.` };
    const reference = randomUUID().slice(0, 8);
    log.error("notes.pane_failed", { reference, userId, cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    return { ok: false as const, message: `Your notes could not be listed: the server failed (reference ${reference}).` };
  };
  const listed = await runAction<NotesPane, { ok: false; message: string }>(listPaneNotesOperation, { query: raw }, { signedOut: { ok: false, message: signedOut.message }, fail: paneFailure });
  return listed.ok ? { ok: true, ...listed.data } : listed;
}

const HISTORY_UNAVAILABLE = "The history could not be loaded: check your connection and try again.";

/** A page of the note's history for the history panel, newest first, with what changed in each version since the one before. */
export async function listRevisionsAction(
  raw: { noteId: string; cursor?: string },
): Promise<({ ok: true; changes: Record<string, RevisionChangeInfo> } & TRevisionList) | { ok: false; message: string }> {
  const page = await runAction<TRevisionList, HistoryFailure>(listRevisionsOperation, { ids: { id: raw.noteId }, query: { limit: 30, cursor: raw.cursor } }, HISTORY);
  if (!page.ok) return page;
  // What each version changed: the panel's own reading, beside the operation's page.
  const { caller } = page;
  return readHistory(caller, async () => {
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

function historyFailure(err: unknown, who?: { userId: string }): HistoryFailure {
  if (isAppError(err, "INVALID_NOTE_ID", "INVALID_REVISION_ID", "INVALID_QUERY", "NOTE_NOT_FOUND", "REVISION_NOT_FOUND")) return notFound;
  log.error("note.history_failed", { ...who, cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return { ok: false, message: HISTORY_UNAVAILABLE };
}

const HISTORY = { signedOut: { ok: false, message: signedOut.message } as HistoryFailure, fail: historyFailure };

async function readHistory<T>(who: { userId: string }, read: () => Promise<T>): Promise<T | HistoryFailure> {
  try {
    return await read();
  } catch (err) {
    return historyFailure(err, who);
  }
}

/**
 * Puts the note back as it was at a revision, only on top of the version the
 * editor has (the person's unsaved typing is saved first by the editor): the
 * restore is a new revision, by the person.
 */
export async function restoreRevisionAction(raw: { noteId: string; revisionId: string; version: number }): Promise<{ ok: true; note: EditorNote } | (SaveNoteResult & { ok: false })> {
  const call = { ids: { id: raw.noteId, revisionId: raw.revisionId }, ifVersion: raw.version };
  const restored = await runAction<VersionedNote, SaveNoteResult & { ok: false }>(restoreRevisionOperation, call, { signedOut, invalid: () => notFound, fail: (err, { userId }) => writeFailure(err, "note.restore_failed", { userId, noteId: raw.noteId, revisionId: raw.revisionId }) });
  return restored.ok ? { ok: true, note: toEditorNote(restored.data.note, restored.data.version) } : restored;
}
