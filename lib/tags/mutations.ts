import type { Db, DbClient } from "@/lib/db/client";
import { isPrismaError } from "@/lib/db/errors";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError, MESSAGES } from "@/lib/errors";
import { serializeTag, TAG_SELECT } from "@/lib/notes/serialize";
import type { TCreateTag, TTag } from "@/lib/tags/schemas";

/**
 * Creates a tag under the account's write lock (every write that makes a
 * change in the account's feed takes it first, see the change_feed migration).
 */
export async function createTag(db: Db, options: { userId: string; input: TCreateTag }): Promise<TTag> {
  return writeTransaction(db, (tx) => insertTag(tx, options), { lockUserId: options.userId });
}

/** Creates a tag inside the caller's transaction, opened with writeTransaction's `lockUserId` (an Idempotency-Key's stored response commits with it). */
export async function insertTag(tx: DbClient, { userId, input }: { userId: string; input: TCreateTag }): Promise<TTag> {
  try {
    const tag = await tx.tag.create({ data: { userId, name: input.name }, select: TAG_SELECT });
    return serializeTag(tag);
  } catch (err) {
    // Names are unique per user, case-insensitively (citext).
    if (isPrismaError(err, "P2002")) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
    throw err;
  }
}

/**
 * Deletes a tag; its links to notes go with it (ON DELETE CASCADE). Under the
 * account's write lock, like every write that links tags: a note created or
 * retagged at the same moment either committed first (and loses the link now)
 * or runs after and no longer finds the tag.
 */
export async function deleteTag(db: Db, { id, userId }: { id: string; userId: string }): Promise<void> {
  const count = await writeTransaction(db, async (tx) => (await tx.tag.deleteMany({ where: { id, userId } })).count, { lockUserId: userId });
  if (count === 0) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
}

/**
 * Renames a tag; the new name must be unique per user, case-insensitively (409
 * otherwise). One statement under the account's write lock, scoped to the
 * owner: another user's tag, or one deleted meanwhile, is a 404. Shared by PATCH /api/tags/:id, the rename_tag
 * tool and the tags page.
 */
export async function renameTag(db: Db, { id, userId, input }: { id: string; userId: string; input: TCreateTag }): Promise<TTag> {
  try {
    const tag = await writeTransaction(db, (tx) => tx.tag.update({ where: { id, userId }, data: { name: input.name }, select: TAG_SELECT }), { lockUserId: userId });
    return serializeTag(tag);
  } catch (err) {
    if (isPrismaError(err, "P2025")) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
    if (isPrismaError(err, "P2002")) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
    throw err;
  }
}
