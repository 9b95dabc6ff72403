import { Prisma, queryRows, type Db } from "@/lib/db/client";

/** At most `limit` requests per `windowSeconds`, counted per key. */
export type RateLimitRule = { limit: number; windowSeconds: number };

export type RateLimitState = {
  /** This request fits in the window. */
  allowed: boolean;
  limit: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Seconds until the window ends and the count starts again (at least 1). */
  resetSeconds: number;
};

// Drivers differ in how they hand back bigint (BigInt, number or string): read through Number().
export type WindowRow = { count: number | bigint; window_start: bigint | number | string; now: bigint | number | string };

/**
 * The common table expressions `clock, counted` of a statement that counts one
 * request against each key `keys` selects (a query of one text column):
 * `counted` holds each key's row as the upsert left it, with the clock's `now`.
 * A statement starting `WITH` puts its own expressions before them and reads
 * `counted` after them. See consumeRateLimit for how the window works.
 */
export function countRequestsCtes(keys: Prisma.Sql, rule: RateLimitRule): Prisma.Sql {
  const windowMs = BigInt(rule.windowSeconds * 1000);
  return Prisma.sql`clock AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now, set_config('synchronous_commit', 'off', true) AS async),
    counted AS (
      INSERT INTO rate_limits AS r (key, count, last_request)
      SELECT keys.key, 1, clock.now FROM (${keys}) AS keys (key), clock
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.last_request <= EXCLUDED.last_request - ${windowMs} THEN 1 ELSE r.count + 1 END,
        last_request = CASE WHEN r.last_request <= EXCLUDED.last_request - ${windowMs} THEN EXCLUDED.last_request ELSE r.last_request END
      RETURNING r.count, r.last_request AS window_start, (SELECT now FROM clock) AS now)`;
}

/** Whether a request counted in `row` fits `rule`, and what is left. */
export function rateLimitState(row: WindowRow, rule: RateLimitRule): RateLimitState {
  const elapsedMs = Number(row.now) - Number(row.window_start);
  const count = Number(row.count);
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetSeconds: Math.max(1, Math.ceil((rule.windowSeconds * 1000 - elapsedMs) / 1000)),
  };
}

/**
 * Counts one request against `key` and says whether it fits: one atomic upsert
 * on the `rate_limits` table, so every server instance shares the count. Fixed
 * windows: a key's window starts with its first request (`last_request` holds
 * the window's start, in milliseconds of the database's clock, the one clock all
 * instances share) and a request after it ends starts the next one.
 *
 * The statement commits without waiting for its WAL flush (synchronous_commit
 * off, for this statement's own transaction only): a crash may forget the last
 * few milliseconds of counts, and the upsert costs about what a read does
 * instead of a disk flush per API request.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<RateLimitState> {
  const rows = await queryRows<WindowRow>(
    db,
    Prisma.sql`WITH ${countRequestsCtes(Prisma.sql`SELECT ${key}::text`, rule)}
    SELECT count, window_start, now FROM counted`,
    { prepare: true },
  );
  const row = rows[0];
  if (!row) throw new Error("rate limit upsert returned no row");
  return rateLimitState(row, rule);
}

/** Drops windows that ended long ago (keys of addresses and accounts that stopped trying). */
export async function pruneRateLimits(db: Db, olderThanSeconds: number): Promise<void> {
  const olderThanMs = BigInt(olderThanSeconds * 1000);
  await db.$executeRaw`DELETE FROM rate_limits WHERE last_request < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${olderThanMs}`;
}
