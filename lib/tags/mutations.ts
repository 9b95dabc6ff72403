import { Prisma, queryRows, type Db, type DbClient } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/failures";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError, MESSAGES } from "@/lib/errors";
import { tagJsonSql } from "@/lib/notes/serialize";
import type { TCreateTag, TTag } from "@/lib/tags/schemas";

/** A tag's wire form, built by the database. */
const TAG_JSON = tagJsonSql("t");

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
    const [row] = await queryRows<{ tag: string }>(tx, Prisma.sql`
      INSERT INTO tags AS t (user_id, name) VALUES (${userId}::uuid, ${input.name}) RETURNING ${TAG_JSON}::text AS tag`);
    return JSON.parse(row!.tag) as TTag;
  } catch (err) {
    // Names are unique per user, case-insensitively (citext).
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
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
  const deleted = await writeTransaction(
    db,
    (tx) => queryRows(tx, Prisma.sql`DELETE FROM tags WHERE id = ${id}::uuid AND user_id = ${userId}::uuid RETURNING 1`),
    { lockUserId: userId },
  );
  if (deleted.length === 0) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
}

/**
 * Renames a tag; the new name must be unique per user, case-insensitively (409
 * otherwise). One statement under the account's write lock, scoped to the
 * owner: another user's tag, or one deleted meanwhile, is a 404. Shared by PATCH /api/tags/:id, the rename_tag
 * tool and the tags page.
 */
export async function renameTag(db: Db, { id, userId, input }: { id: string; userId: string; input: TCreateTag }): Promise<TTag> {
  let row: { tag: string } | undefined;
  try {
    [row] = await writeTransaction(
      db,
      (tx) => queryRows<{ tag: string }>(tx, Prisma.sql`
        UPDATE tags t SET name = ${input.name} WHERE t.id = ${id}::uuid AND t.user_id = ${userId}::uuid RETURNING ${TAG_JSON}::text AS tag`),
      { lockUserId: userId },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", { userMessage: MESSAGES.tagExists });
    throw err;
  }
  if (!row) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.tagNotFound });
  return JSON.parse(row.tag) as TTag;
}
