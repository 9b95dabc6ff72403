import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { embeddedNotStarted, parseDatabaseUrl, type DatabaseTarget } from "@/lib/db/config";
import { databaseLimits, sessionSettings, startupOptions, type DatabaseLimits } from "@/lib/db/limits";
import { openPglite } from "@/lib/db/pglite";
import { getEnv } from "@/lib/env";

export { Prisma };
export type Db = PrismaClient;

// A registered symbol: a transaction made through one copy of this module (see drivers below) is one to every copy.
const TRANSACTION = Symbol.for("notes.transaction");

/**
 * An open write transaction on one connection of the driver itself (see
 * runTransaction): statements go to it through queryRows.
 */
export type Transaction = { readonly [TRANSACTION]: true; query(sql: Prisma.Sql): Promise<Record<string, unknown>[]> };

/** A client or an open transaction: data-layer functions that only run SQL (queryRows) accept either. */
export type DbClient = PrismaClient | Transaction;

/**
 * Runs `fn` in a transaction on a connection of its own: `prologue` (SQL with
 * no parameters, may be empty) rides on the BEGIN's round trip, and `fn`'s
 * statements follow. COMMIT once `fn` resolves, ROLLBACK when it throws; past
 * the bound the transaction is given up (TransactionExpiredError) and rolled back.
 */
type TransactionRunner = <T>(prologue: string, fn: (tx: Transaction) => Promise<T>) => Promise<T>;

export type DbHandle = { db: PrismaClient; target: DatabaseTarget; close(): Promise<void> };

/** How write transactions run on a client: its time bounds, and whether each transaction must set them itself. */
export type TransactionSettings = { limits: DatabaseLimits; setPerTransaction: boolean };

/**
 * One statement sent straight to the driver under a client: its rows as the
 * driver parses them. `prepare`: kept prepared on the connection, where it can be.
 */
type DirectQuery = (text: string, values: unknown[], prepare: boolean) => Promise<Record<string, unknown>[]>;

/** What a client made by createDb or dbFromPglite runs beside Prisma, on the same driver. */
type ClientDriver = { settings: TransactionSettings; query: DirectQuery; transaction: TransactionRunner };

// Kept on globalThis, as the client itself is (getDbHandle): the bundler may
// give two route chunks copies of this module, and a client made through one
// copy must find its driver through the other.
const driversKey = Symbol.for("notes.db.drivers");
const drivers: WeakMap<PrismaClient, ClientDriver> = ((globalThis as { [driversKey]?: WeakMap<PrismaClient, ClientDriver> })[driversKey] ??= new WeakMap());

function driverOf(db: PrismaClient): ClientDriver {
  const driver = drivers.get(db);
  if (!driver) throw new Error("This client was not made by createDb or dbFromPglite");
  return driver;
}

/** The settings a client was created with. */
export function transactionSettingsFor(db: PrismaClient): TransactionSettings {
  return driverOf(db).settings;
}

export type CreateDbOptions = { poolMax?: number; limits?: DatabaseLimits };

export async function createDb(target: DatabaseTarget, options: CreateDbOptions = {}): Promise<DbHandle> {
  const limits = options.limits ?? databaseLimits(getEnv());
  if (target.kind === "postgres") {
    const pooled = target.transactionPooler === true;
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolMax ?? 5,
      idleTimeoutMillis: 10_000,
      // Bounds both opening a connection and waiting for a free one.
      connectionTimeoutMillis: limits.poolTimeoutMs,
      keepAlive: true,
      // Every connection starts with the time bounds. A transaction-mode
      // pooler refuses startup options and would not keep session settings
      // anyway: there each transaction sets them (lib/db/transaction.ts), and
      // the client stops waiting on any other statement a little after its bound.
      ...(pooled ? { query_timeout: limits.statementTimeoutMs + 1000 } : { options: startupOptions(limits) }),
    });
    // A connection that fails while idle in the pool is dropped by the pool; the next query opens another.
    pool.on("error", () => {});
    const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    drivers.set(db, {
      settings: { limits, setPerTransaction: pooled },
      query: postgresDirectQuery(pool, { canPrepare: !pooled }),
      transaction: postgresTransactions(pool, limits),
    });
    return { db, target, close: () => db.$disconnect() };
  }
  if (target.kind === "embedded") throw embeddedNotStarted(target);
  const pglite = await openPglite(target.dataDir);
  await applyPgliteSettings(pglite, limits);
  return dbFromPglite(pglite, target, limits);
}

// PGlite is one connection in this process: there is no lock to wait on from
// another session, but a runaway statement is still worth a bound where the
// build honours it. A setting it refuses is left at its default.
async function applyPgliteSettings(pglite: PGlite, limits: DatabaseLimits): Promise<void> {
  for (const [name, value] of Object.entries(sessionSettings(limits))) {
    try {
      await pglite.query(`SELECT set_config($1, $2, false)`, [name, value]);
    } catch {
      // Not supported by this build.
    }
  }
}

/** A client over an already open embedded database; close() closes both. */
export function dbFromPglite(
  pglite: PGlite,
  target: DatabaseTarget = { kind: "pglite", dataDir: null },
  limits: DatabaseLimits = databaseLimits(getEnv()),
): DbHandle {
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  drivers.set(db, { settings: { limits, setPerTransaction: false }, query: pgliteDirectQuery(pglite), transaction: pgliteTransactions(pglite, limits) });
  return {
    db,
    target,
    async close() {
      await db.$disconnect();
      await pglite.close();
    },
  };
}

/** How many distinct statements a pool prepares by name; any further ones are sent unnamed. */
const MAX_PREPARED_STATEMENTS = 200;

/**
 * Statements run on the pool directly. One asked to be prepared is prepared
 * once per connection, under a name of its own (the same text always gets the
 * same name), so later runs skip parsing and, once PostgreSQL settles on a
 * generic plan, planning. Through a transaction-mode pooler, which hands each
 * statement any server connection, every statement is sent unnamed.
 */
function postgresDirectQuery(pool: pg.Pool, { canPrepare }: { canPrepare: boolean }): DirectQuery {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED_STATEMENTS) names.set(text, (name = `notes_${names.size + 1}`));
    return name;
  };
  return async (text, values, prepare) =>
    (await pool.query<Record<string, unknown>>({ text, values, name: prepare && canPrepare ? nameFor(text) : undefined })).rows;
}

/**
 * Statements run on the embedded database directly. PGlite sends every query
 * unnamed, so PostgreSQL parses and plans it again on each run; in WebAssembly,
 * planning took about 2.5 of the 3 ms that reading one note cost. One asked to
 * be prepared is prepared once with SQL's PREPARE and run with EXECUTE (0.5 ms
 * for that note). EXECUTE takes no bound parameters, so its values are written
 * into it as literals, quoted by pg's escapeLiteral and coerced by PostgreSQL
 * to the types the statement declared. A statement with a value of any other
 * kind than a string, a finite number, a boolean or null (or a string holding
 * a NUL) runs unnamed.
 */
function pgliteDirectQuery(pglite: PGlite): DirectQuery {
  const names = new Map<string, Promise<string>>();
  // Names are never reused: one that failed to prepare is forgotten, and the map's size shrinks with it.
  let made = 0;
  const run = async (text: string, values: unknown[]) => (await pglite.query<Record<string, unknown>>(text, values)).rows;
  const prepared = (text: string): Promise<string> | undefined => {
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED_STATEMENTS) {
      const chosen = `notes_${(made += 1)}`;
      name = pglite.query(`PREPARE ${chosen} AS ${text}`).then(() => chosen);
      // A statement that failed to prepare (it fails unprepared too) is tried afresh next time.
      name.catch(() => names.delete(text));
      names.set(text, name);
    }
    return name;
  };
  return async (text, values, prepare) => {
    const literals = prepare ? values.map(sqlLiteral) : [];
    const name = prepare && !literals.includes(undefined) ? prepared(text) : undefined;
    if (!name) return run(text, values);
    return run(`EXECUTE ${await name}${literals.length > 0 ? `(${literals.join(", ")})` : ""}`, []);
  };
}

/**
 * Write transactions on a connection of the pool, with the driver's own
 * protocol: through Prisma's interactive transactions, each statement cost
 * about 0.8 ms of the server's CPU beside the driver's 0.1 ms, and a create's
 * five statements held the account's write lock that much longer (see
 * docs/performance.md). A transaction past its bound is given up: its
 * connection is closed rather than returned (a statement of it may still be
 * running), and the server rolls it back.
 */
function postgresTransactions(pool: pg.Pool, limits: DatabaseLimits): TransactionRunner {
  return async (prologue, fn) => {
    const client = await pool.connect();
    const { tx, end } = openTransaction(async (sql) => (await client.query<Record<string, unknown>>({ text: sql.text, values: sql.values })).rows, limits);
    let committing = false;
    let discard = false;
    try {
      await client.query(prologue === "" ? "BEGIN" : `BEGIN; ${prologue}`);
      const result = await withinBound(fn(tx), limits.transactionTimeoutMs);
      end();
      committing = true;
      await client.query("COMMIT");
      return result;
    } catch (err) {
      end();
      // Given up past its bound, a statement of it may still be running; after
      // a failed COMMIT the connection's state is unknown: either way it is
      // closed, not returned. Otherwise it is rolled back, or closed if that fails.
      discard = committing || err instanceof TransactionExpiredError || !(await client.query("ROLLBACK").then(() => true, () => false));
      throw err;
    } finally {
      client.release(discard || undefined);
    }
  };
}

/**
 * Write transactions on the embedded database: PGlite's own, which hold its
 * one connection (other statements wait for the COMMIT, as they did for
 * Prisma's transactions on it).
 */
function pgliteTransactions(pglite: PGlite, limits: DatabaseLimits): TransactionRunner {
  return (prologue, fn) =>
    pglite.transaction(async (open) => {
      const { tx, end } = openTransaction(async (sql) => (await open.query<Record<string, unknown>>(sql.text, sql.values)).rows, limits);
      try {
        if (prologue !== "") await open.exec(prologue);
        return await withinBound(fn(tx), limits.transactionTimeoutMs);
      } finally {
        end();
      }
    });
}

/** A transaction's statements, sent by `run` until end(): work given up past the bound runs nothing more. */
function openTransaction(run: (sql: Prisma.Sql) => Promise<Record<string, unknown>[]>, limits: DatabaseLimits): { tx: Transaction; end(): void } {
  let open = true;
  const tx: Transaction = {
    [TRANSACTION]: true,
    query: (sql) => (open ? run(sql) : Promise.reject(new TransactionExpiredError(limits.transactionTimeoutMs))),
  };
  return { tx, end: () => void (open = false) };
}

/** A transaction that ran past its bound and was given up; nothing of it was committed. */
export class TransactionExpiredError extends Error {
  readonly kind = "TransactionExpired";
  constructor(boundMs: number) {
    super(`The transaction ran past its ${boundMs} ms bound and was rolled back`);
  }
}

/** `work`, or TransactionExpiredError once `ms` pass first. */
function withinBound<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransactionExpiredError(ms)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Runs `fn` as one transaction of `db`'s own driver (see TransactionRunner).
 * `prologue`: SQL without parameters sent with the BEGIN (settings for the
 * transaction), or "".
 */
export function runTransaction<T>(db: PrismaClient, prologue: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return driverOf(db).transaction(prologue, fn);
}

function isTransaction(db: DbClient): db is Transaction {
  return TRANSACTION in db;
}

/** A value as an SQL literal of unknown type, or undefined for a kind of value not written this way. */
function sqlLiteral(value: unknown): string | undefined {
  if (value === null) return "NULL";
  // A NUL would end the statement's text early: such a value goes as a parameter, which PostgreSQL refuses.
  if (typeof value === "string") return value.includes("\0") ? undefined : pg.escapeLiteral(value);
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean" || typeof value === "bigint") return pg.escapeLiteral(String(value));
  return undefined;
}

/**
 * The rows of one statement. On a client (not an open transaction) it goes to
 * the driver directly: on the hottest paths (authenticating a request,
 * reading one note) Prisma's own work per query costs more than the query.
 * In a transaction it runs on the transaction's connection. Columns come back as the
 * driver parses them, which differs between drivers for bigint and numeric:
 * statements cast those to text, integer or json, or read them through Number().
 *
 * `prepare`: only for a statement whose best plan does not depend on its
 * values (a lookup by key, a plain page of the list index). A prepared
 * statement may be run on a generic plan, which for a search or a tag's page
 * could be far worse than the plan made for the values at hand.
 */
export async function queryRows<T>(db: DbClient, query: Prisma.Sql, options: { prepare?: boolean } = {}): Promise<T[]> {
  if (isTransaction(db)) return (await db.query(query)) as T[];
  const driver = drivers.get(db);
  if (driver) return (await driver.query(query.text, query.values, options.prepare === true)) as T[];
  return db.$queryRaw<T[]>(query);
}

// One client per server process: Next.js dev reloads modules, and the embedded
// database may only be opened once, so the handle lives on globalThis.
const globalKey = Symbol.for("notes.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DbHandle> };

function getDbHandle(): Promise<DbHandle> {
  const store = globalThis as GlobalWithDb;
  if (!store[globalKey]) {
    const env = getEnv();
    const pending = createDb(parseDatabaseUrl(env.DATABASE_URL), { poolMax: env.DATABASE_POOL_MAX });
    // A failed open (say, the embedded database is locked) is retried on the next request.
    pending.catch(() => {
      if (store[globalKey] === pending) delete store[globalKey];
    });
    store[globalKey] = pending;
  }
  return store[globalKey];
}

export async function getDb(): Promise<PrismaClient> {
  return (await getDbHandle()).db;
}
