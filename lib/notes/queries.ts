import { Prisma, type DbClient } from "@/lib/db/client";
import { AppError, MESSAGES } from "@/lib/errors";
import type { TNote } from "@/lib/notes/schemas";
import { NOTE_TAGS_INCLUDE, serializeNote, serializeNoteWithTags, TAG_SELECT, type NoteRow, type TagRow } from "@/lib/notes/serialize";

export type ListNotesOptions = {
  userId: string;
  /** Whitespace-separated terms, all of which must occur in the title or the text. */
  search?: string;
  tagId?: string;
  limit: number;
  offset: number;
};

export type NoteList = { notes: TNote[]; total: number };

/** Splits a search into its terms; empty when there is nothing to match. */
export function searchTerms(search: string | undefined): string[] {
  return (search ?? "").split(/\s+/).filter((term) => term.length > 0);
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function notesFilter({ userId, search, tagId }: Pick<ListNotesOptions, "userId" | "search" | "tagId">): Prisma.Sql {
  const conditions = [Prisma.sql`n.user_id = ${userId}::uuid`];
  if (tagId) {
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM note_tags nt WHERE nt.note_id = n.id AND nt.tag_id = ${tagId}::uuid)`);
  }
  for (const term of searchTerms(search)) {
    const pattern = `%${escapeLikePattern(term)}%`;
    conditions.push(Prisma.sql`(n.title ILIKE ${pattern} OR n.content_text ILIKE ${pattern})`);
  }
  return Prisma.join(conditions, " AND ");
}

/** A page of the user's notes, most recently updated first (ties by id), with the exact total. */
export async function listNotes(db: DbClient, options: ListNotesOptions): Promise<NoteList> {
  const where = notesFilter(options);
  const [rows, counted] = await Promise.all([
    db.$queryRaw<NoteRow[]>`
      SELECT n.id, n.title, n.content, n.content_text AS "contentText", n.created_at AS "createdAt", n.updated_at AS "updatedAt"
      FROM notes n
      WHERE ${where}
      ORDER BY n.updated_at DESC, n.id DESC
      LIMIT ${options.limit} OFFSET ${options.offset}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM notes n WHERE ${where}`,
  ]);
  const tagsByNote = await loadTags(db, rows.map((row) => row.id));
  return {
    notes: rows.map((row) => serializeNote(row, tagsByNote.get(row.id) ?? [])),
    total: Number(counted[0]?.total ?? 0),
  };
}

/** Tags of many notes in one query, alphabetically per note. */
async function loadTags(db: DbClient, noteIds: string[]): Promise<Map<string, TagRow[]>> {
  const byNote = new Map<string, TagRow[]>();
  if (noteIds.length === 0) return byNote;
  const links = await db.noteTag.findMany({
    where: { noteId: { in: noteIds } },
    select: { noteId: true, tag: { select: TAG_SELECT } },
    orderBy: { tag: { name: "asc" } },
  });
  for (const link of links) {
    const list = byNote.get(link.noteId);
    if (list) list.push(link.tag);
    else byNote.set(link.noteId, [link.tag]);
  }
  return byNote;
}

export async function getNoteOrThrow(
  db: DbClient,
  { id, userId }: { id: string; userId: string },
): Promise<{ note: TNote; version: number }> {
  // Ownership is part of the lookup: another user's note is indistinguishable from a missing one.
  const note = await db.note.findFirst({ where: { id, userId }, include: NOTE_TAGS_INCLUDE });
  if (!note) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.noteNotFound });
  return { note: serializeNoteWithTags(note), version: note.version };
}
