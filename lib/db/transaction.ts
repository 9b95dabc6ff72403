import { setTimeout as sleep } from "node:timers/promises";
import { Prisma, transactionSettingsFor, type Db } from "@/lib/db/client";
import { isWriteConflict } from "@/lib/db/failures";
import { transactionSettingsSql, type DatabaseLimits } from "@/lib/db/limits";
import { unavailableError } from "@/lib/errors";
import { log } from "@/lib/log";
import { accountWritten } from "@/lib/db/account-writes";
import { AUTHOR_SETTING, authorSettingValue, type RevisionAuthor } from "@/lib/revisions/author";

export type WriteTransactionOptions = {
  /**
   * The account whose notes and tags the transaction writes. Its `users` row
   * is locked first, before any note, tag or counter row: every write to one
   * account's data takes its locks in that one order, so two of them can
   * queue but never deadlock (the per-tag and per-user note counters, kept by
   * triggers, are rows every tagged write of the account touches). Accounts
   * share nothing but the search vocabulary, whose inserts are sorted.
   */
  lockUserId?: string;
  /**
   * Who writes: the note revisions the transaction makes record it (they are
   * written by triggers at commit, which read it from a transaction setting).
   */
  author?: RevisionAuthor;
};

// Backoff before attempt n+1 of a transaction that lost a race: random in
// [0, base·2^n], capped, so writers that collided spread out instead of
// colliding again.
const RETRY_BASE_MS = 15;
const RETRY_CAP_MS = 400;

/**
 * Runs `fn` as one interactive transaction within the configured time bounds.
 * A deadlock or serialization failure (40P01, 40001) runs the whole
 * transaction again, up to DATABASE_WRITE_RETRIES more times with jittered
 * backoff; only then it is a 503 with Retry-After. `fn` may therefore run more
 * than once and must do nothing outside the transaction it is given.
 */
export async function writeTransaction<T>(
  db: Db,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
  options: WriteTransactionOptions = {},
): Promise<T> {
  const { limits, setPerTransaction } = transactionSettingsFor(db);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const result = await db.$transaction(
        async (tx) => {
          if (setPerTransaction) await tx.$queryRawUnsafe(transactionSettingsSql(limits));
          const author = options.author === undefined ? null : authorSettingValue(options.author);
          if (options.lockUserId !== undefined) await lockUserRow(tx, options.lockUserId, limits, author);
          else if (author !== null) await tx.$queryRaw`SELECT set_config(${AUTHOR_SETTING}, ${author}, true)`;
          return fn(tx);
        },
        // Waiting for a connection ends with the pool's own bound; the
        // transaction's bound is above any one statement's, so a transaction
        // given up on has no statement left running.
        { maxWait: limits.poolTimeoutMs, timeout: limits.transactionTimeoutMs },
      );
      if (options.lockUserId !== undefined) accountWritten(options.lockUserId);
      return result;
    } catch (err) {
      if (!isWriteConflict(err)) throw err;
      if (attempt >= limits.writeRetries) {
        log.error("database.write_conflict", { attempts: attempt + 1 });
        throw unavailableError(err);
      }
      await sleep(Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt));
    }
  }
}

/**
 * Takes the account's write lock: its `users` row, FOR NO KEY UPDATE, the
 * same lock the note counter trigger takes, so it adds no new conflict with
 * anything but the account's other writes (sign-ins and foreign-key checks
 * against the row do not wait on it).
 */
async function lockUserRow(tx: Prisma.TransactionClient, userId: string, limits: DatabaseLimits, author: string | null): Promise<void> {
  // Waiting in the account's queue has its own, longer bound; every later
  // statement of the transaction is back under the ordinary lock bound. The
  // author rides on this statement rather than costing a round trip of its own.
  const authorSetting = author === null ? Prisma.empty : Prisma.sql`, set_config(${AUTHOR_SETTING}, ${author}, true)`;
  await tx.$queryRaw`SELECT set_config('lock_timeout', ${String(limits.accountLockTimeoutMs)}, true)${authorSetting}`;
  // The ordinary bound is back once the lock is held, in the same statement:
  // the aggregate is computed only after its input, the locking scan, ended.
  await tx.$queryRaw`SELECT set_config('lock_timeout', ${String(limits.lockTimeoutMs)}, true)
    FROM (SELECT count(*) FROM (SELECT 1 FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE) AS account) AS locked`;
}
