import type { DbClient } from "@/lib/db/client";
import { isPrismaError } from "@/lib/db/errors";
import { AppError, MESSAGES } from "@/lib/errors";
import { serializeTag, TAG_SELECT } from "@/lib/notes/serialize";
import type { TCreateTag, TTag } from "@/lib/tags/schemas";

export async function createTag(db: DbClient, { userId, input }: { userId: string; input: TCreateTag }): Promise<TTag> {
  try {
    const tag = await db.tag.create({ data: { userId, name: input.name }, select: TAG_SELECT });
    return serializeTag(tag);
  } catch (err) {
    // Names are unique per user, case-insensitively (citext).
    if (isPrismaError(err, "P2002")) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
    throw err;
  }
}

/** Deletes a tag; its links to notes go with it (ON DELETE CASCADE). */
export async function deleteTag(db: DbClient, { id, userId }: { id: string; userId: string }): Promise<void> {
  const { count } = await db.tag.deleteMany({ where: { id, userId } });
  if (count === 0) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
}

/** Renames a tag; the new name must be unique per user, case-insensitively (409 otherwise). */
export async function renameTag(db: DbClient, { id, userId, input }: { id: string; userId: string; input: TCreateTag }): Promise<TTag> {
  try {
    const { count } = await db.tag.updateMany({ where: { id, userId }, data: { name: input.name } });
    if (count === 0) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
  } catch (err) {
    if (isPrismaError(err, "P2002")) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
    throw err;
  }
  const tag = await db.tag.findUniqueOrThrow({ where: { id }, select: TAG_SELECT });
  return serializeTag(tag);
}
