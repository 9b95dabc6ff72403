"use server";

// The trash page's actions and the notes page's Undo: the REST operations,
// for the person signed in.

import { deleteNoteForeverOperation, emptyTrashOperation, restoreNoteOperation } from "@/lib/operations/trash";
import { failureWords, runAction, type ActionCall } from "@/lib/actions/run-action";
import type { OperationCore } from "@/lib/operations/operation";

export type TrashActionResult = { ok: true } | { ok: false; message: string };

const GONE = "This note is no longer in the trash.";

const TRASH = {
  signedOut: { ok: false, message: "You have been signed out. Sign in again to change the trash." } as const,
  fail: failureWords({
    INVALID_NOTE_ID: GONE,
    TRASHED_NOTE_NOT_FOUND: GONE,
    NOTE_EXISTS: "A note with this id exists already, so this one cannot come back.",
  }),
};

async function trashAction(op: OperationCore, call: ActionCall): Promise<TrashActionResult> {
  const result = await runAction(op, call, TRASH);
  return result.ok ? { ok: true } : result;
}

/** Brings a note back from the trash, with the same id. */
export async function restoreNoteAction(id: string): Promise<TrashActionResult> {
  return trashAction(restoreNoteOperation, { ids: { id } });
}

/** Removes one note from the trash for good. */
export async function deleteNoteForeverAction(id: string): Promise<TrashActionResult> {
  return trashAction(deleteNoteForeverOperation, { ids: { id } });
}

/** Removes every note in the trash for good. */
export async function emptyTrashAction(): Promise<TrashActionResult> {
  return trashAction(emptyTrashOperation, {});
}
