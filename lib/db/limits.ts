import type { Env } from "@/lib/env";

/** How long the database may make anything wait, in milliseconds. */
export type DatabaseLimits = {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  /**
   * Waiting in line behind the account's other writes (its write lock): a
   * queue of the account's own short transactions, so it may be longer than
   * the wait for a foreign lock, within half the transaction's bound.
   */
  accountLockTimeoutMs: number;
  /**
   * Waiting for the account's turn in this process (accountWrite): behind its
   * earlier writes' conversions and transactions. A turn is mostly the
   * conversions before it, so the wait has the bound of the wait for a
   * conversion worker, and at least the account lock's.
   */
  accountQueueTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** Waiting for a pooled connection (and opening one). */
  poolTimeoutMs: number;
  /** A whole interactive transaction, from its first statement to COMMIT. */
  transactionTimeoutMs: number;
  /** Extra attempts after a deadlock or serialization failure. */
  writeRetries: number;
};

/**
 * The limits from the environment, made consistent: a lock wait ends before
 * its statement's bound, and one statement before its transaction's, so a
 * transaction Prisma gives up on has nothing left running on the server.
 */
export function databaseLimits(env: Pick<Env,
  | "DATABASE_STATEMENT_TIMEOUT_MS"
  | "DATABASE_LOCK_TIMEOUT_MS"
  | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS"
  | "DATABASE_POOL_TIMEOUT_MS"
  | "DATABASE_TRANSACTION_TIMEOUT_MS"
  | "DATABASE_WRITE_RETRIES"
  | "CONVERSION_QUEUE_TIMEOUT_MS">): DatabaseLimits {
  const transactionTimeoutMs = env.DATABASE_TRANSACTION_TIMEOUT_MS;
  const statementTimeoutMs = Math.min(env.DATABASE_STATEMENT_TIMEOUT_MS, transactionTimeoutMs);
  const lockTimeoutMs = Math.min(env.DATABASE_LOCK_TIMEOUT_MS, statementTimeoutMs);
  const accountLockTimeoutMs = Math.min(statementTimeoutMs, Math.max(lockTimeoutMs, Math.floor(transactionTimeoutMs / 2)));
  return {
    statementTimeoutMs,
    lockTimeoutMs,
    accountLockTimeoutMs,
    accountQueueTimeoutMs: Math.max(accountLockTimeoutMs, env.CONVERSION_QUEUE_TIMEOUT_MS),
    idleInTransactionTimeoutMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    poolTimeoutMs: env.DATABASE_POOL_TIMEOUT_MS,
    transactionTimeoutMs,
    writeRetries: env.DATABASE_WRITE_RETRIES,
  };
}

/** The server settings that enforce the limits, by name. */
export function sessionSettings(limits: DatabaseLimits): Record<string, string> {
  return {
    statement_timeout: String(limits.statementTimeoutMs),
    lock_timeout: String(limits.lockTimeoutMs),
    idle_in_transaction_session_timeout: String(limits.idleInTransactionTimeoutMs),
  };
}

/** The settings as libpq's `options` startup parameter: applied to each connection as it opens, no extra round trip. */
export function startupOptions(limits: DatabaseLimits): string {
  return Object.entries(sessionSettings(limits))
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
}

/**
 * The settings for one transaction, for connections whose session cannot hold
 * them (a transaction-mode pooler hands each transaction any server
 * connection). Values are integers from validated configuration.
 */
export function transactionSettingsSql(limits: DatabaseLimits): string {
  const settings = sessionSettings(limits);
  return `SELECT ${Object.entries(settings)
    .map(([name, value]) => `set_config('${name}', '${value}', true)`)
    .join(", ")}`;
}
