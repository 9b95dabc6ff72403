import type { Db } from "@/lib/db/client";
import { encodeCursor, type NoteCursor } from "@/lib/notes/cursor";
import { serializeNote } from "@/lib/notes/serialize";
import { SETTINGS_SELECT, type NoteSettings } from "@/lib/notes/settings";
import { TAG_SELECT } from "@/lib/tags/serialize";
import { purgeExpiredTrash } from "@/lib/notes/trash-move";
import { expiryCutoff, retentionMs, type TrashClock } from "@/lib/notes/trash-retention";
import type { TTrashedNote, TTrashList } from "@/lib/trash/schemas";

export type ListTrashOptions = TrashClock & {
  userId: string;
  limit: number;
  offset: number;
  /** After this item in trash order (the cursor's timestamp is its deletedAt). */
  cursor?: NoteCursor;
};

/** The trashed_notes columns a trash item is made of. */
type TrashedNoteRow = {
  id: string;
  title: string;
  content: unknown;
  contentText: string;
  tagIds: string[];
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date;
} & NoteSettings;

const ROW_SELECT = {
  id: true,
  title: true,
  content: true,
  contentText: true,
  ...SETTINGS_SELECT,
  tagIds: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} as const;

/**
 * Trash items in their wire form, with the tags that still exist (by name,
 * as on a note); a tag deleted since the note was trashed is left out.
 */
async function serializeTrashedNotes(db: Db, userId: string, rows: TrashedNoteRow[], clock: TrashClock = {}): Promise<TTrashedNote[]> {
  const tagIds = [...new Set(rows.flatMap((row) => row.tagIds))];
  const tags = tagIds.length === 0 ? [] : await db.tag.findMany({ where: { userId, id: { in: tagIds } }, select: TAG_SELECT, orderBy: [{ name: "asc" }, { id: "asc" }] });
  const keep = retentionMs(clock);
  return rows.map((row) => {
    const own = new Set(row.tagIds);
    return {
      // The note's own wire form, from the one field list every note is written with.
      ...serializeNote(row, tags.filter((tag) => own.has(tag.id))),
      deletedAt: row.deletedAt.toISOString(),
      expiresAt: new Date(row.deletedAt.getTime() + keep).toISOString(),
    };
  });
}

/**
 * A page of the user's trash, most recently deleted first (ties by id), with
 * the total. The account's expired items are purged first, so what is listed
 * can still be restored.
 */
export async function listTrash(db: Db, { userId, limit, offset, cursor, ...clock }: ListTrashOptions): Promise<TTrashList> {
  await purgeExpiredTrash(db, { userId, ...clock });
  const live = { userId, deletedAt: { gte: expiryCutoff(clock) } };
  const after = cursor
    ? {
        OR: [
          { deletedAt: { lt: new Date(cursor.updatedAt) } },
          { deletedAt: new Date(cursor.updatedAt), id: { lt: cursor.id } },
        ],
      }
    : {};
  const [rows, total] = await Promise.all([
    db.trashedNote.findMany({
      where: { ...live, ...after },
      orderBy: [{ deletedAt: "desc" }, { id: "desc" }],
      skip: offset,
      // One row past the page tells whether a next page exists.
      take: limit + 1,
      select: ROW_SELECT,
    }),
    db.trashedNote.count({ where: live }),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const notes = await serializeTrashedNotes(db, userId, page, clock);
  return {
    notes,
    total,
    ...(rows.length > limit && last ? { nextCursor: encodeCursor({ updatedAt: last.deletedAt.toISOString(), id: last.id }) } : {}),
  };
}

/** The title of a note in the user's trash, or null when it is not there (restored, purged, another user's). */
export async function findTrashedNoteTitle(db: Db, { id, userId }: { id: string; userId: string }): Promise<string | null> {
  const row = await db.trashedNote.findFirst({ where: { id, userId }, select: { title: true } });
  return row?.title ?? null;
}
