import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDb, dbFromPglite, type Db, type DbHandle } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { AppError } from "@/lib/errors";
import { makeTempDir } from "@/scripts/lib/processes";
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from "./database-templates";
import { testEnv, type TestDbKind } from "./env";

/** The database's time bounds as the environment sets them by default, for tests that tighten one of them. */
export const DEFAULT_DATABASE_SETTINGS = {
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  DATABASE_LOCK_TIMEOUT_MS: 2000,
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
  DATABASE_POOL_TIMEOUT_MS: 5000,
  DATABASE_TRANSACTION_TIMEOUT_MS: 10_000,
  DATABASE_WRITE_RETRIES: 4,
  CONVERSION_QUEUE_TIMEOUT_MS: 15_000,
};

/** A fresh, migrated database of its own for one test file; removed by drop(). */
export type TestDatabase = {
  kind: TestDbKind;
  /** DATABASE_URL for an app process. */
  url: string;
  /**
   * Runs `fn` with a client. The embedded database belongs to one client at a
   * time, so for PGlite the client is closed again before this returns, unless
   * the database holds one open (createTestDatabase's `holdOpen`).
   */
  withDb<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Closes the client a database held open (see useTestDatabase), so that
   * another client or process may open the embedded database; the next
   * withDb opens it again.
   */
  release(): Promise<void>;
  drop(): Promise<void>;
};

/**
 * A database of its own for one test. `holdOpen`: withDb keeps one client
 * open until release() or drop(), where by default an embedded database is
 * opened and closed for each call (so that an app or another process may open
 * it in between); opening one costs about 0.2 s, and its first queries more
 * while its caches fill.
 */
export async function createTestDatabase(kind: TestDbKind, { holdOpen = false } = {}): Promise<TestDatabase> {
  return kind === "pglite" ? createPgliteDatabase(holdOpen) : createPostgresDatabase();
}

/** The run's migrated template (tests/helpers/database-templates.ts, a global setup); a run without it is misconfigured. */
function template(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the vitest global setup tests/helpers/database-templates.ts makes it`);
  return value;
}

async function createPgliteDatabase(holdOpen: boolean): Promise<TestDatabase> {
  const { dir, remove } = await makeTempDir("notes-test-pglite-");
  const dataDir = path.join(dir, "pglite");
  // A copy of the run's migrated database, closed when it was made.
  fs.cpSync(template(PGLITE_TEMPLATE_ENV), dataDir, { recursive: true });
  const target = { kind: "pglite" as const, dataDir };
  let held: Promise<DbHandle> | undefined;
  const release = async () => {
    const handle = held;
    held = undefined;
    await (await handle)?.close();
  };
  return {
    kind: "pglite",
    url: `pglite:${dataDir}`,
    async withDb(fn) {
      if (holdOpen) return fn((await (held ??= createDb(target))).db);
      const handle = await createDb(target);
      try {
        return await fn(handle.db);
      } finally {
        await handle.close();
      }
    },
    release,
    async drop() {
      await release();
      await remove();
    },
  };
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const adminUrl = testEnv.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `notes_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await createFromTemplate(admin, name, template(POSTGRES_TEMPLATE_ENV));
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ kind: "postgres", url: url.toString() }, { poolMax: 4 });
  return {
    kind: "postgres",
    url: url.toString(),
    withDb: (fn) => fn(handle.db),
    // Many clients may share a PostgreSQL database: nothing to release.
    release: async () => {},
    async drop() {
      await handle.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * CREATE DATABASE … TEMPLATE. PostgreSQL refuses to copy a template while
 * another session uses it, and two copies started at once (test files run in
 * parallel) briefly count as that: the refusal is retried, a bounded number of
 * times.
 */
async function createFromTemplate(admin: pg.Client, name: string, templateName: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
      return;
    } catch (err) {
      const busy = (err as { code?: string }).code === "55006";
      if (!busy || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** A migrated in-memory embedded database, for tests that call lib code directly. */
export async function createMemoryDb(): Promise<DbHandle> {
  const pglite = await openPglite(null);
  await migrateDatabase({ pglite });
  return dbFromPglite(pglite);
}

/**
 * A database for one `describe` block: created before its tests, dropped
 * after them, with one client held open for its tests' withDb calls (release()
 * closes it, for a test that opens the database some other way). The handle
 * it returns is usable inside the tests and hooks.
 */
export function useTestDatabase(kind: TestDbKind): TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { holdOpen: true });
  });
  afterAll(() => database?.drop());
  return new Proxy({} as TestDatabase, {
    get(_, key: keyof TestDatabase) {
      if (!database) throw new Error("The test database is used before its beforeAll hook ran");
      return database[key];
    },
  });
}

/** The status and text of the AppError a data-layer call fails with (or what else it threw, or null). */
export async function appErrorOf(promise: Promise<unknown>): Promise<{ status: number; error: string } | unknown> {
  const err = await promise.then(() => null, (caught: unknown) => caught);
  return err instanceof AppError ? { status: err.status, error: err.userMessage } : err;
}
