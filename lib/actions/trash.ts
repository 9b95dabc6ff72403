"use server";

// The trash page's actions and the notes page's Undo: each re-checks who is
// signed in and calls the same data-layer functions as the REST routes.

import { z } from "zod";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getDb, type Db } from "@/lib/db/client";
import { isAppError, isUnavailable, UNAVAILABLE_ACTION_MESSAGE } from "@/lib/errors";
import { deleteTrashedNote, emptyTrash, restoreTrashedNote } from "@/lib/trash/mutations";

export type TrashActionResult = { ok: true } | { ok: false; message: string };

const SIGNED_OUT = { ok: false, message: "You have been signed out. Sign in again to change the trash." } as const;
const GONE = { ok: false, message: "This note is no longer in the trash." } as const;

/** Brings a note back from the trash, with the same id. */
export async function restoreNoteAction(id: string): Promise<TrashActionResult> {
  const user = await getCurrentUser();
  if (!user) return SIGNED_OUT;
  if (!z.guid().safeParse(id).success) return GONE;
  return run((db) => restoreTrashedNote(db, { id, userId: user.id }));
}

/** Removes one note from the trash for good. */
export async function deleteNoteForeverAction(id: string): Promise<TrashActionResult> {
  const user = await getCurrentUser();
  if (!user) return SIGNED_OUT;
  if (!z.guid().safeParse(id).success) return GONE;
  return run((db) => deleteTrashedNote(db, { id, userId: user.id }));
}

/** Removes every note in the trash for good. */
export async function emptyTrashAction(): Promise<TrashActionResult> {
  const user = await getCurrentUser();
  if (!user) return SIGNED_OUT;
  return run((db) => emptyTrash(db, { userId: user.id }));
}

async function run(fn: (db: Db) => Promise<unknown>): Promise<TrashActionResult> {
  try {
    await fn(await getDb());
    return { ok: true };
  } catch (err) {
    if (isAppError(err, "TRASHED_NOTE_NOT_FOUND")) return { ok: false, message: GONE.message };
    if (isAppError(err, "NOTE_EXISTS")) return { ok: false, message: "A note with this id exists already, so this one cannot come back." };
    if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
    throw err;
  }
}
