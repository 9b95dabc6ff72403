import { Prisma, queryRows, type Db, type DbClient } from "@/lib/db/client";
import { ownedRow } from "@/lib/db/owner";
import { isUniqueViolation } from "@/lib/errors/database";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { tagJsonSql } from "@/lib/tags/serialize";
import type { RevisionAuthor } from "@/lib/db/author";
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
    if (isUniqueViolation(err)) throw new AppError("TAG_EXISTS");
    throw err;
  }
}

type ChangeTagOptions = {
  id: string;
  userId: string;
  /**
   * Who writes: every note carrying the tag gets a new version (its JSON shows
   * the tag), and the revision a deletion makes records it ("system" when
   * omitted: scripts).
   */
  author?: RevisionAuthor;
};

/**
 * Deletes a tag; its links to notes go with it (ON DELETE CASCADE), and each
 * note that carried it gets a new version, so its ETag changes and the feed
 * lists it as updated (see the tag_changes_new_note_versions migration).
 * Under the account's write lock, like every write that links tags: a note
 * created or retagged at the same moment either committed first (and loses
 * the link now) or runs after and no longer finds the tag.
 */
export async function deleteTag(db: Db, { id, userId, author }: ChangeTagOptions): Promise<void> {
  const deleted = await writeTransaction(
    db,
    (tx) => queryRows(tx, Prisma.sql`DELETE FROM tags WHERE ${ownedRow(id, userId)} RETURNING 1`),
    { lockUserId: userId, author },
  );
  if (deleted.length === 0) throw new AppError("TAG_NOT_FOUND");
}

/**
 * Renames a tag; the new name must be unique per user, case-insensitively (409
 * otherwise). One statement under the account's write lock, scoped to the
 * owner: another user's tag, or one deleted meanwhile, is a 404. Every note
 * carrying the tag gets a new version, as for a deletion (a change of case
 * included: the notes show the name as written). Shared by PATCH
 * /api/tags/:id, the rename_tag tool and the tags page.
 */
export async function renameTag(db: Db, { id, userId, author, input }: ChangeTagOptions & { input: TCreateTag }): Promise<TTag> {
  let row: { tag: string } | undefined;
  try {
    [row] = await writeTransaction(
      db,
      (tx) => queryRows<{ tag: string }>(tx, Prisma.sql`
        UPDATE tags t SET name = ${input.name} WHERE ${ownedRow(id, userId, "t")} RETURNING ${TAG_JSON}::text AS tag`),
      { lockUserId: userId, author },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("TAG_EXISTS");
    throw err;
  }
  if (!row) throw new AppError("TAG_NOT_FOUND");
  return JSON.parse(row.tag) as TTag;
}
