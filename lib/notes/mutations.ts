import { Prisma, type Db, type DbClient } from "@/lib/db/client";
import { AppError, MESSAGES } from "@/lib/errors";
import type { TCreateNote, TNote, TUpdateNote } from "@/lib/notes/schemas";
import { NOTE_TAGS_INCLUDE, serializeNoteWithTags } from "@/lib/notes/serialize";
import { isPrismaError } from "@/lib/db/errors";

/** JSON null must be spelled Prisma.JsonNull for a Json column. */
function toJsonInput(value: unknown): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

/** The subset of `tagIds` the user owns; the rest are ignored, as the contract says. */
async function ownedTagIds(db: DbClient, userId: string, tagIds: string[] | undefined): Promise<string[]> {
  if (!tagIds || tagIds.length === 0) return [];
  const unique = [...new Set(tagIds.map((id) => id.toLowerCase()))];
  const owned = await db.tag.findMany({ where: { userId, id: { in: unique } }, select: { id: true } });
  return owned.map((tag) => tag.id);
}

const notFound = () => new AppError("NOT_FOUND", { userMessage: MESSAGES.noteNotFound });

/** Creates a note and its tag links in one transaction. */
export async function createNote(db: Db, { userId, input }: { userId: string; input: TCreateNote }): Promise<TNote> {
  return db.$transaction(async (tx) => {
    const tagIds = await ownedTagIds(tx, userId, input.tagIds);
    // One timestamp for both, so updatedAt equals createdAt on a new note.
    const now = new Date();
    const note = await tx.note.create({
      data: {
        userId,
        title: input.title,
        content: toJsonInput(input.content ?? []),
        contentText: input.contentText ?? "",
        createdAt: now,
        updatedAt: now,
        tags: { create: tagIds.map((tagId) => ({ tagId })) },
      },
      include: NOTE_TAGS_INCLUDE,
    });
    return serializeNoteWithTags(note);
  });
}

/** Applies a partial update; `tagIds`, when given, replaces the note's tags. */
export async function updateNote(
  db: Db,
  { id, userId, input }: { id: string; userId: string; input: TUpdateNote },
): Promise<TNote> {
  try {
    return await db.$transaction(async (tx) => {
      const existing = await tx.note.findFirst({ where: { id, userId }, select: { id: true } });
      if (!existing) throw notFound();
      const tagIds = input.tagIds === undefined ? undefined : await ownedTagIds(tx, userId, input.tagIds);
      const note = await tx.note.update({
        where: { id },
        data: {
          title: input.title,
          content: input.content === undefined ? undefined : toJsonInput(input.content),
          contentText: input.contentText,
          updatedAt: new Date(),
          tags: tagIds === undefined ? undefined : { deleteMany: {}, create: tagIds.map((tagId) => ({ tagId })) },
        },
        include: NOTE_TAGS_INCLUDE,
      });
      return serializeNoteWithTags(note);
    });
  } catch (err) {
    // Deleted by a concurrent request between the check and the write.
    if (isPrismaError(err, "P2025")) throw notFound();
    throw err;
  }
}

export async function deleteNote(db: DbClient, { id, userId }: { id: string; userId: string }): Promise<void> {
  const { count } = await db.note.deleteMany({ where: { id, userId } });
  if (count === 0) throw notFound();
}
