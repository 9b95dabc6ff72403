import { setTimeout as sleep } from "node:timers/promises";
import { Prisma, type Db } from "@/lib/db/client";
import { ownedBy } from "@/lib/db/owner";
import { onAccountWrite } from "@/lib/db/account-writes";
import { getEnv } from "@/lib/env";
import { AppError, fieldDetails } from "@/lib/errors";
import type { TChange, TChangesQuery, TChangesResponse } from "@/lib/changes/schemas";
import { isoTimestamp } from "@/lib/db/wire";

/** A `since` no answer of this feed gave: a field error of the 400. */
const CURSOR_AHEAD = "This cursor is ahead of your changes: use the cursor an answer of this feed gave you";

/** How often a long poll looks for changes made by another instance or by SQL (this instance's own writes wake it at once). */
const POLL_INTERVAL_MS = 1000;
/** Expired changes deleted per read at most: the oldest first, by the primary key. */
const PRUNE_BATCH = 1000;

type FollowOptions = TChangesQuery & { userId: string; signal?: AbortSignal };

/**
 * The account's changes after `since`, in commit order: GET /api/changes and
 * the recent_changes tool. Without `since`, none and the current cursor. With
 * `wait`, when nothing follows `since`, waits up to that many seconds for a
 * change (woken at once by this instance's writes, and checking the database
 * every second for others'), holding no connection while it waits.
 */
export async function followChanges(db: Db, { userId, since, limit, wait, signal }: FollowOptions): Promise<TChangesResponse> {
  await pruneExpiredChanges(db, userId);
  if (since === undefined || wait === 0) return readChanges(db, { userId, since, limit });

  // Listening before the first read: a write committed in between still wakes the wait.
  let woken = new AbortController();
  const unsubscribe = onAccountWrite(userId, () => woken.abort());
  try {
    const first = await readChanges(db, { userId, since, limit });
    const deadline = Date.now() + wait * 1000;
    while (first.changes.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) break;
      await sleep(Math.min(POLL_INTERVAL_MS, left), undefined, { signal: signal ? AbortSignal.any([woken.signal, signal]) : woken.signal }).catch(() => undefined);
      if (signal?.aborted) break;
      const wasWoken = woken.signal.aborted;
      if (wasWoken) woken = new AbortController();
      // A write of this instance, or any change seen in the account's number (another instance's or SQL's).
      if (wasWoken || (await headOf(db, userId)) > BigInt(since)) {
        const page = await readChanges(db, { userId, since, limit });
        if (page.changes.length > 0) return page;
      }
    }
    return first;
  } finally {
    unsubscribe();
  }
}

/** The number of the account's newest change (0 before any). */
async function headOf(db: Db, userId: string): Promise<bigint> {
  const [row] = await db.$queryRaw<{ head: string }[]>`SELECT change_seq::text AS head FROM users WHERE id = ${userId}::uuid`;
  return BigInt(row?.head ?? "0");
}

type Row = { head: string; oldest: string | null; changes: string };

async function readChanges(db: Db, { userId, since, limit }: { userId: string; since?: string; limit: number }): Promise<TChangesResponse> {
  if (since === undefined) return { changes: [], cursor: String(await headOf(db, userId)), hasMore: false };
  // One statement, one snapshot: the head, the oldest change kept and the page agree.
  const [row] = await db.$queryRaw<Row[]>`
    SELECT u.change_seq::text AS head,
           (SELECT min(c.seq)::text FROM changes c WHERE c.user_id = u.id) AS oldest,
           (SELECT coalesce(json_agg(json_build_object(
                     'seq', p.seq::text, 'entity', p.entity, 'action', p.action, 'id', p.entity_id, 'version', p.version,
                     'at', ${isoTimestamp(Prisma.sql`p.created_at`)}) ORDER BY p.seq), '[]'::json)::text
              FROM (SELECT * FROM changes c WHERE c.user_id = u.id AND c.seq > ${since}::bigint ORDER BY c.seq LIMIT ${limit + 1}) p) AS changes
    FROM users u WHERE u.id = ${userId}::uuid`;
  if (!row) return { changes: [], cursor: since, hasMore: false };
  const head = BigInt(row.head);
  const after = BigInt(since);
  if (after > head) throw new AppError("INVALID_QUERY", { fields: fieldDetails({ since: [CURSOR_AHEAD] }) });
  // Numbers have no gaps: when the change right after `since` is no longer kept, some were deleted unread.
  const firstKept = row.oldest === null ? head + 1n : BigInt(row.oldest);
  if (after < head && after + 1n < firstKept) throw new AppError("CURSOR_EXPIRED", { args: [getEnv().CHANGES_RETENTION_DAYS] });

  const page = JSON.parse(row.changes) as (Omit<TChange, "version"> & { seq: string; version: number | null })[];
  const hasMore = page.length > limit;
  const shown = page.slice(0, limit);
  return {
    changes: shown.map(({ seq: _seq, version, ...change }) => (version === null ? change : { ...change, version })),
    cursor: shown.at(-1)?.seq ?? since,
    hasMore,
  };
}

/** Deletes the account's changes older than CHANGES_RETENTION_DAYS, a bounded batch from the oldest. */
async function pruneExpiredChanges(db: Db, userId: string): Promise<void> {
  const cutoff = new Date(Date.now() - getEnv().CHANGES_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  await db.$executeRaw`
    DELETE FROM changes c USING (
      SELECT seq FROM changes WHERE ${ownedBy(userId)} ORDER BY seq LIMIT ${PRUNE_BATCH}
    ) oldest
    WHERE ${ownedBy(userId, "c")} AND c.seq = oldest.seq AND c.created_at < ${cutoff}`;
}
