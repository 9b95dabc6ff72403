/**
 * What a database failure means for the caller, whichever layer reported it:
 * PostgreSQL (its SQLSTATE, nested in Prisma's driver adapter error), the `pg`
 * pool, or Prisma's transaction manager.
 */

// Serialization failure and deadlock: the transaction lost a race and may simply run again.
const WRITE_CONFLICT_CODES = new Set(["40001", "40P01"]);

// The server is going away, starting, read-only, out of connections, or gave
// up on a statement or a lock wait after its bound. None of it is the
// caller's fault and all of it passes: 503, try again shortly.
const UNAVAILABLE_CODES = new Set([
  "57P01", // admin shutdown (also pg_terminate_backend)
  "57P02", // crash shutdown
  "57P03", // cannot connect now (starting up, shutting down)
  "57014", // statement timeout (or a cancel)
  "55P03", // lock not available: lock_timeout
  "25006", // read-only transaction: a standby, or a read-only switch during failover
  "25P03", // idle-in-transaction session timeout
  "53300", // too many connections
  "53400", // configuration limit exceeded
  "08000", "08003", "08006", "08001", "08004", "08P01", // connection exceptions
]);

// Prisma's own codes: P1001/P1002 can't reach / timed out, P1017 server closed
// the connection, P2024 pool timeout, P2028 the interactive transaction was
// given up (its timeout passed, or its connection broke).
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);

// Failures with no SQLSTATE: the socket, the pool, Prisma's messages.
const UNAVAILABLE_PATTERN =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|Connection ended|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect|too many clients|database system is (starting up|shutting down|in recovery mode)|Can't reach database|DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|Timed out fetching a new connection|Transaction already closed|Transaction not found|expired transaction|query_wait_timeout|server_login_retry|no more connections allowed|pgbouncer cannot connect to server|query read timeout/i;

type Nested = { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown; meta?: unknown; cause?: unknown };

/** Every object in an error's chain: itself, its `cause`s and Prisma's `meta.driverAdapterError.cause`. */
function chain(err: unknown): Nested[] {
  const found: Nested[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && found.length < 8) {
    const item = queue.shift();
    if (item === null || typeof item !== "object") continue;
    const nested = item as Nested;
    found.push(nested);
    queue.push(nested.cause);
    const meta = nested.meta as { driverAdapterError?: unknown } | undefined;
    if (meta && typeof meta === "object") queue.push(meta.driverAdapterError);
  }
  return found;
}

/** The PostgreSQL SQLSTATE behind a failure, if it came from the server. */
export function postgresCode(err: unknown): string | undefined {
  for (const item of chain(err)) {
    for (const code of [item.originalCode, item.code]) {
      if (typeof code === "string" && /^[0-9][0-9A-Z]{4}$/.test(code)) return code;
    }
  }
  return undefined;
}

function prismaCode(err: unknown): string | undefined {
  for (const item of chain(err)) {
    if (typeof item.code === "string" && /^P\d{4}$/.test(item.code)) return item.code;
  }
  return undefined;
}

/** A unique constraint refused the write (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return postgresCode(err) === "23505";
}

/** A serialization failure or deadlock: running the whole transaction again is the cure. */
export function isWriteConflict(err: unknown): boolean {
  const code = postgresCode(err);
  if (code) return WRITE_CONFLICT_CODES.has(code);
  return prismaCode(err) === "P2034" || chain(err).some((item) => item.kind === "TransactionWriteConflict");
}

/** The database is down, restarting, read-only, saturated or over a time bound: 503 with Retry-After. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = postgresCode(err);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  if (code && code.startsWith("08")) return true;
  const prisma = prismaCode(err);
  if (prisma && UNAVAILABLE_PRISMA_CODES.has(prisma)) return true;
  return chain(err).some(
    (item) =>
      (typeof item.code === "string" && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE)$/.test(item.code)) ||
      (typeof item.kind === "string" && /^(DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|TransactionExpired)$/.test(item.kind)) ||
      (typeof item.message === "string" && UNAVAILABLE_PATTERN.test(item.message)),
  );
}
