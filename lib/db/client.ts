import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { parseDatabaseUrl, type DatabaseTarget } from "@/lib/db/config";
import { openPglite } from "@/lib/db/pglite";
import { getEnv } from "@/lib/env";

export { Prisma };
export type Db = PrismaClient;
/** A client or an open transaction: data-layer functions accept either. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

export type DbHandle = { db: PrismaClient; target: DatabaseTarget; close(): Promise<void> };

export async function createDb(target: DatabaseTarget, options: { poolMax?: number } = {}): Promise<DbHandle> {
  if (target.kind === "postgres") {
    const adapter = new PrismaPg({ connectionString: target.url, max: options.poolMax ?? 5, idleTimeoutMillis: 10_000 });
    const db = new PrismaClient({ adapter });
    return { db, target, close: () => db.$disconnect() };
  }
  return dbFromPglite(await openPglite(target.dataDir), target);
}

/** A client over an already open embedded database; close() closes both. */
export function dbFromPglite(pglite: PGlite, target: DatabaseTarget = { kind: "pglite", dataDir: null }): DbHandle {
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
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

export function getDbHandle(): Promise<DbHandle> {
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
