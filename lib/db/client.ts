import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
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

/** The settings a client was created with; the environment's for one made elsewhere. */
export function transactionSettingsFor(db: PrismaClient): TransactionSettings {
  return transactionSettings.get(db) ?? { limits: databaseLimits(getEnv()), setPerTransaction: false };
}

export type CreateDbOptions = { poolMax?: number; limits?: DatabaseLimits };

export async function createDb(target: DatabaseTarget, options: CreateDbOptions = {}): Promise<DbHandle> {
  const limits = options.limits ?? databaseLimits(getEnv());
  if (target.kind === "postgres") {
    const pooled = target.transactionPooler === true;
    const adapter = new PrismaPg({
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
    const db = new PrismaClient({ adapter });
    transactionSettings.set(db, { limits, setPerTransaction: pooled });
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
  return {
    db,
    target,
    async close() {
      await db.$disconnect();
      await pglite.close();
    },
  };
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
