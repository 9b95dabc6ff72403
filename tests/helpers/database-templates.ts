import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { testEnv } from "./env";

/** Where the run's migrated embedded database lies, for test databases to be copied from. */
export const PGLITE_TEMPLATE_ENV = "TEST_PGLITE_TEMPLATE";
/** The run's migrated PostgreSQL database, for test databases to be created from as a TEMPLATE. */
export const POSTGRES_TEMPLATE_ENV = "TEST_POSTGRES_TEMPLATE";

/**
 * Migrates one database of each kind once per run (a vitest global setup);
 * every test database is a copy of it (tests/helpers/test-db.ts). Creating
 * and migrating an embedded database takes seconds; copying a migrated one
 * takes a fraction of that, and a PostgreSQL TEMPLATE copy about a fifth of a
 * migration.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Vitest runs a global setup for each project that lists it: once per run is enough.
  if (process.env[PGLITE_TEMPLATE_ENV]) return async () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-test-template-"));
  const dataDir = path.join(dir, "pglite");
  const name = testEnv.TEST_DATABASE_URL ? `notes_template_${randomBytes(6).toString("hex")}` : undefined;
  // Both at once: the embedded one is mostly this process's work, the other PostgreSQL's.
  await Promise.all([
    (async () => {
      const pglite = await openPglite(dataDir);
      await migrateDatabase({ pglite });
      await pglite.close();
      process.env[PGLITE_TEMPLATE_ENV] = dataDir;
    })(),
    (async () => {
      if (!name || !testEnv.TEST_DATABASE_URL) return;
      await adminQuery(`CREATE DATABASE ${name}`);
      const url = new URL(testEnv.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      await migrateDatabase({ postgresUrl: url.toString() });
      process.env[POSTGRES_TEMPLATE_ENV] = name;
    })(),
  ]);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (name) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testEnv.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
