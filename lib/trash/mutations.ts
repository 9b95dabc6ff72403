import type { Db } from "@/lib/db/client";
import { isPrismaError } from "@/lib/db/errors";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError, MESSAGES } from "@/lib/errors";
import { insertNote, type VersionedNote } from "@/lib/notes/mutations";
import { purgeExpiredTrash } from "@/lib/trash/move";
import { expiryCutoff, type TrashClock } from "@/lib/trash/retention";

const notInTrash = () => new AppError("NOT_FOUND", { userMessage: MESSAGES.trashedNoteNotFound });
const noteExists = () => new AppError("CONFLICT", { userMessage: MESSAGES.noteExists });

/**
 * Brings a trashed note back with the same id, title, content, version and
 * timestamps, and the tags it had that still exist. The trash row is removed
 * and the note inserted through the create's own path (insertNote) in one
 * transaction, so its search columns, vocabulary and counters are written as
 * for any new note. 404 when it is not in the user's trash (or has expired),
 * 409 when a note with that id exists.
 */
export async function restoreTrashedNote(db: Db, { id, userId, ...clock }: TrashClock & { id: string; userId: string }): Promise<VersionedNote> {
  try {
    return await writeTransaction(
      db,
      async (tx) => {
        // Under the account's write lock: of two restores at once, the second no longer finds it.
        const [row] = await tx.trashedNote.findMany({ where: { id, userId, deletedAt: { gte: expiryCutoff(clock) } }, take: 1 });
        if (!row) throw notInTrash();
        if (await tx.note.findUnique({ where: { id }, select: { id: true } })) throw noteExists();
        // The note first, then the trashed copy goes: its history, kept while
        // the note is in either table, is never without one (see note_revisions).
        const restored = await insertNote(tx, {
          userId,
          input: {
            title: row.title,
            content: row.content,
            contentText: row.contentText,
            tagIds: row.tagIds,
            pinned: row.pinned,
            // The Markdown stored with the note comes back with it: nothing to convert.
            derivedMarkdown: row.contentMarkdown,
          },
          keep: { id: row.id, version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt },
        });
        await tx.trashedNote.delete({ where: { id } });
        return restored;
      },
      { lockUserId: userId },
    );
  } catch (err) {
    // Another account's note under the same id (the primary key refuses it).
    if (isPrismaError(err, "P2002")) throw noteExists();
    throw err;
  }
}

/** Removes one note from the trash for good. 404 when it is not in the user's trash. */
export async function deleteTrashedNote(db: Db, { id, userId, ...clock }: TrashClock & { id: string; userId: string }): Promise<void> {
  // Under the account's write lock, like every write that makes a change in its feed.
  const count = await writeTransaction(
    db,
    async (tx) => {
      const { count: deleted } = await tx.trashedNote.deleteMany({ where: { id, userId } });
      await purgeExpiredTrash(tx, { userId, ...clock });
      return deleted;
    },
    { lockUserId: userId },
  );
  if (count === 0) throw notInTrash();
}

/** Removes every note in the user's trash for good; returns how many. */
export async function emptyTrash(db: Db, { userId }: { userId: string }): Promise<number> {
  return writeTransaction(db, async (tx) => (await tx.trashedNote.deleteMany({ where: { userId } })).count, { lockUserId: userId });
}
