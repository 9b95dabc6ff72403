import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { runTransaction, transactionSettingsFor, type Db, type Transaction } from "@/lib/db/client";
import { isWriteConflict } from "@/lib/errors/database";
import { transactionSettingsSql, type DatabaseLimits } from "@/lib/db/limits";
import { AppError, unavailableError } from "@/lib/errors";
import { log } from "@/lib/log";
import { AccountQueueTimeout, accountWritten, inAccountQueue } from "@/lib/db/account-writes";
import { AUTHOR_SETTING, authorSettingValue, type RevisionAuthor } from "@/lib/db/author";

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
  /** The write restores the note's revision of this version: recorded as a restore, a revision of its own. */
  restoredFrom?: number;
};

// Backoff before attempt n+1 of a transaction that lost a race: random in
// [0, base·2^n], capped, so writers that collided spread out instead of
// colliding again.
const RETRY_BASE_MS = 15;
const RETRY_CAP_MS = 400;

/**
 * Runs `fn` as one transaction within the configured time bounds, on a
 * connection of the driver itself (runTransaction). A deadlock or
 * serialization failure (40P01, 40001) runs the whole transaction again, up to
 * DATABASE_WRITE_RETRIES more times with jittered backoff; only then it is a
 * 503 with Retry-After. `fn` may therefore run more than once and must do
 * nothing outside the transaction it is given.
 */
export async function writeTransaction<T>(db: Db, fn: (tx: Transaction) => Promise<T>, options: WriteTransactionOptions = {}): Promise<T> {
  const { limits, setPerTransaction } = transactionSettingsFor(db);
  const prologue = transactionPrologue(limits, { setPerTransaction, ...options });
  for (let attempt = 0; ; attempt += 1) {
    try {
      const result = await runTransaction(db, prologue, fn);
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
 * One write of the account, `work`: its conversion, then its
 * writeTransaction, run when this process runs no other write of the account.
 * The transactions would take turns on the account's write lock anyway; taking
 * turns from the conversion on keeps one busy account to about one core, so
 * the other requests the server answers meanwhile are not starved (the
 * hostile neighbour in docs/performance.md), and a write waiting its turn
 * holds no database connection. A wait longer than accountQueueTimeoutMs is a
 * 503 with Retry-After, and nothing is written.
 */
export async function accountWrite<T>(db: Db, userId: string, work: () => Promise<T>): Promise<T> {
  const { limits } = transactionSettingsFor(db);
  try {
    return await inAccountQueue(userId, limits.accountQueueTimeoutMs, work);
  } catch (err) {
    throw err instanceof AccountQueueTimeout ? new AppError("ACCOUNT_WRITES_BUSY", { cause: err }) : err;
  }
}

/**
 * What a transaction runs before `fn`, sent with its BEGIN in one round trip:
 * the time bounds where connections cannot keep them (a transaction-mode
 * pooler), the author its revisions record, and the account's write lock
 * (below). Values are integers from validated configuration, and an id and
 * JSON quoted as literals.
 */
function transactionPrologue(limits: DatabaseLimits, options: WriteTransactionOptions & { setPerTransaction: boolean }): string {
  const { setPerTransaction, author, restoredFrom, lockUserId } = options;
  const authorSetting = authorSettingValue(author, restoredFrom);
  const settings = [
    // Waiting in the account's queue has its own, longer bound.
    ...(lockUserId === undefined ? [] : [`set_config('lock_timeout', '${limits.accountLockTimeoutMs}', true)`]),
    ...(authorSetting === undefined ? [] : [`set_config('${AUTHOR_SETTING}', ${pg.escapeLiteral(authorSetting)}, true)`]),
  ];
  return [
    ...(setPerTransaction ? [transactionSettingsSql(limits)] : []),
    ...(settings.length > 0 ? [`SELECT ${settings.join(", ")}`] : []),
    ...(lockUserId === undefined ? [] : [lockUserRowSql(lockUserId, limits)]),
  ].join("; ");
}

/**
 * Takes the account's write lock: its `users` row, FOR NO KEY UPDATE, the
 * same lock the note counter trigger takes, so it adds no new conflict with
 * anything but the account's other writes (sign-ins and foreign-key checks
 * against the row do not wait on it). The ordinary lock bound is back once
 * the lock is held, in the same statement: the aggregate is computed only
 * after its input, the locking scan, ended. Every later statement of the
 * transaction is under it.
 */
function lockUserRowSql(userId: string, limits: DatabaseLimits): string {
  return `SELECT set_config('lock_timeout', '${limits.lockTimeoutMs}', true)
    FROM (SELECT count(*) FROM (SELECT 1 FROM users WHERE id = ${pg.escapeLiteral(userId)}::uuid FOR NO KEY UPDATE) AS account) AS locked`;
}
