import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { parseDatabaseUrl, type DatabaseTarget } from "@/lib/db/config";
import { databaseLimits, sessionSettings, startupOptions, type DatabaseLimits } from "@/lib/db/limits";
import { openPglite } from "@/lib/db/pglite";
import { getEnv } from "@/lib/env";

export { Prisma };
export type Db = PrismaClient;
/** A client or an open transaction: data-layer functions accept either. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

export type DbHandle = { db: PrismaClient; target: DatabaseTarget; close(): Promise<void> };

/** How write transactions run on a client: its time bounds, and whether each transaction must set them itself. */
export type TransactionSettings = { limits: DatabaseLimits; setPerTransaction: boolean };

const transactionSettings = new WeakMap<PrismaClient, TransactionSettings>();

/**
 * One statement sent straight to the driver under a client: its rows as the
 * driver parses them. `prepare`: kept prepared on the connection, where it can be.
 */
type DirectQuery = (text: string, values: unknown[], prepare: boolean) => Promise<Record<string, unknown>[]>;

const directQueries = new WeakMap<PrismaClient, DirectQuery>();

/** The settings a client was created with; the environment's for one made elsewhere. */
export function transactionSettingsFor(db: PrismaClient): TransactionSettings {
  return transactionSettings.get(db) ?? { limits: databaseLimits(getEnv()), setPerTransaction: false };
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
    transactionSettings.set(db, { limits, setPerTransaction: pooled });
    directQueries.set(db, postgresDirectQuery(pool, { canPrepare: !pooled }));
    return { db, target, close: () => db.$disconnect() };
  }
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
  transactionSettings.set(db, { limits, setPerTransaction: false });
  directQueries.set(db, pgliteDirectQuery(pglite));
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
 * In a transaction it runs there, through Prisma. Columns come back as the
 * driver parses them, which differs between drivers for bigint and numeric:
 * statements cast those to text, integer or json, or read them through Number().
 *
 * `prepare`: only for a statement whose best plan does not depend on its
 * values (a lookup by key, a plain page of the list index). A prepared
 * statement may be run on a generic plan, which for a search or a tag's page
 * could be far worse than the plan made for the values at hand.
 */
export async function queryRows<T>(db: DbClient, query: Prisma.Sql, options: { prepare?: boolean } = {}): Promise<T[]> {
  const direct = directQueries.get(db as PrismaClient);
  if (direct) return (await direct(query.text, query.values, options.prepare === true)) as T[];
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
