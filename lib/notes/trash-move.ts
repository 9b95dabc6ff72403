import { Prisma, queryRows, type DbClient, type Transaction } from "@/lib/db/client";
import { ownedBy, ownedRow } from "@/lib/db/owner";
import { log } from "@/lib/log";
import { settingColumnsSql, settingsFromExcludedSql } from "@/lib/notes/settings-sql";
import { expiryCutoff, type TrashClock } from "@/lib/notes/trash-retention";
import { atVersionSql } from "@/lib/notes/version";

/**
 * Moves a note to the trash: one statement deletes the notes row (its tag
 * links and the counters follow through their foreign keys and triggers, as
 * for any delete) and inserts what a restore needs into trashed_notes. The
 * tag links are read in the statement's own snapshot, before the cascade
 * removes them. Only at `ifVersion` when given. Returns whether a note moved.
 */
export async function moveNoteToTrash(
  tx: Transaction,
  { id, userId, ifVersion, now = new Date() }: { id: string; userId: string; ifVersion?: number; now?: Date },
): Promise<boolean> {
  const moved = await queryRows<{ id: string }>(tx, Prisma.sql`
    WITH gone AS (
      DELETE FROM notes WHERE ${ownedRow(id, userId)}${atVersionSql(ifVersion)}
      RETURNING id, user_id, title, content, content_text, content_markdown, version, created_at, updated_at${settingColumnsSql()}
    )
    INSERT INTO trashed_notes AS t (id, user_id, title, content, content_text, content_markdown, version, tag_ids, created_at, updated_at, deleted_at${settingColumnsSql()})
    SELECT g.id, g.user_id, g.title, g.content, g.content_text, g.content_markdown, g.version,
           coalesce((SELECT array_agg(nt.tag_id ORDER BY nt.tag_id) FROM note_tags nt WHERE nt.note_id = g.id), '{}'::uuid[]),
           g.created_at, g.updated_at, ${now}${settingColumnsSql("g")}
    FROM gone g
    -- A trashed copy under the same id can only be an older state of this note: the newer one wins.
    ON CONFLICT (id) DO UPDATE SET
      title = EXCLUDED.title, content = EXCLUDED.content, content_text = EXCLUDED.content_text,
      content_markdown = EXCLUDED.content_markdown, version = EXCLUDED.version, tag_ids = EXCLUDED.tag_ids,
      created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, deleted_at = EXCLUDED.deleted_at${settingsFromExcludedSql()}
    WHERE t.user_id = EXCLUDED.user_id
    RETURNING t.id`);
  return moved.length > 0;
}

/** How many expired notes of all accounts one purge removes at most, so no request pays for a backlog at once. */
const PURGE_BATCH = 500;

/**
 * Removes trashed notes past the retention period for good: one account's
 * (every one of them) when `userId` is given, else a bounded batch of any
 * account's. Called lazily by trash reads and writes, so no operator job is
 * needed; an account nobody uses any more is purged by everyone else's deletes.
 */
export async function purgeExpiredTrash(db: DbClient, { userId, ...clock }: TrashClock & { userId?: string } = {}): Promise<number> {
  const cutoff = expiryCutoff(clock);
  const purged = userId !== undefined
    ? Prisma.sql`DELETE FROM trashed_notes WHERE ${ownedBy(userId)} AND deleted_at < ${cutoff} RETURNING 1`
    : Prisma.sql`
      DELETE FROM trashed_notes WHERE id IN (
        SELECT id FROM trashed_notes WHERE deleted_at < ${cutoff} ORDER BY deleted_at LIMIT ${PURGE_BATCH}
      ) RETURNING 1`;
  return (await queryRows(db, purged)).length;
}

/** A purge that must not fail the request it rides on (the request's own work has committed). */
export async function purgeExpiredTrashQuietly(db: DbClient, options: TrashClock & { userId?: string } = {}): Promise<void> {
  try {
    await purgeExpiredTrash(db, options);
  } catch (err) {
    log.error("trash.purge_failed", { cause: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
}
