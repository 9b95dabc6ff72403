import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { ownedBy, ownedRow } from "@/lib/db/owner";
import { isUniqueViolation } from "@/lib/errors/database";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { insertNote, type VersionedNote } from "@/lib/notes/mutations";
import { settingsOf, type NoteSettings } from "@/lib/notes/settings";
import { settingsByKeySql } from "@/lib/notes/settings-sql";
import { purgeExpiredTrash } from "@/lib/notes/trash-move";
import { expiryCutoff, type TrashClock } from "@/lib/notes/trash-retention";

/** A trashed note as a restore reads it, and whether a note holds its id now. */
type TrashedRow = {
  title: string;
  content: unknown;
  content_text: string;
  content_markdown: string | null;
  tag_ids: string[];
  version: number;
  created_at: Date;
  updated_at: Date;
  note_exists: boolean;
} & NoteSettings;

const notInTrash = () => new AppError("TRASHED_NOTE_NOT_FOUND");
const noteExists = () => new AppError("NOTE_EXISTS");

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
        const [row] = await queryRows<TrashedRow>(tx, Prisma.sql`
          SELECT t.title, t.content, t.content_text, t.content_markdown, t.tag_ids::text[] AS tag_ids, t.version, t.created_at, t.updated_at${settingsByKeySql("t")},
            EXISTS (SELECT 1 FROM notes n WHERE n.id = t.id) AS note_exists
          FROM trashed_notes t WHERE ${ownedRow(id, userId, "t")} AND t.deleted_at >= ${expiryCutoff(clock)}`);
        if (!row) throw notInTrash();
        if (row.note_exists) throw noteExists();
        // The note first, then the trashed copy goes: its history, kept while
        // the note is in either table, is never without one (see note_revisions).
        const restored = await insertNote(tx, {
          userId,
          input: {
            title: row.title,
            content: row.content,
            contentText: row.content_text,
            tagIds: row.tag_ids,
            ...settingsOf(row),
            // The Markdown stored with the note comes back with it: nothing to convert.
            derivedMarkdown: row.content_markdown,
          },
          keep: { id, version: row.version, createdAt: row.created_at, updatedAt: row.updated_at },
        });
        await queryRows(tx, Prisma.sql`DELETE FROM trashed_notes WHERE id = ${id}::uuid`);
        return restored;
      },
      { lockUserId: userId },
    );
  } catch (err) {
    // Another account's note under the same id (the primary key refuses it).
    if (isUniqueViolation(err)) throw noteExists();
    throw err;
  }
}

/** Removes one note from the trash for good. 404 when it is not in the user's trash. */
export async function deleteTrashedNote(db: Db, { id, userId, ...clock }: TrashClock & { id: string; userId: string }): Promise<void> {
  // Under the account's write lock, like every write that makes a change in its feed.
  const count = await writeTransaction(
    db,
    async (tx) => {
      const deleted = await queryRows(tx, Prisma.sql`DELETE FROM trashed_notes WHERE ${ownedRow(id, userId)} RETURNING 1`);
      await purgeExpiredTrash(tx, { userId, ...clock });
      return deleted.length;
    },
    { lockUserId: userId },
  );
  if (count === 0) throw notInTrash();
}

/** Removes every note in the user's trash for good; returns how many. */
export async function emptyTrash(db: Db, { userId }: { userId: string }): Promise<number> {
  const deleted = await writeTransaction(db, (tx) => queryRows(tx, Prisma.sql`DELETE FROM trashed_notes WHERE ${ownedBy(userId)} RETURNING 1`), { lockUserId: userId });
  return deleted.length;
}
