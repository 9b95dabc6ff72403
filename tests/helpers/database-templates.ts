import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { startEmbeddedPostgres } from "@/scripts/lib/embedded-postgres";

/** Where the run's migrated embedded database lies, for test databases to be copied from. */
export const PGLITE_TEMPLATE_ENV = "TEST_PGLITE_TEMPLATE";
/** The run's migrated PostgreSQL database, for test databases to be created from as a TEMPLATE. */
export const POSTGRES_TEMPLATE_ENV = "TEST_POSTGRES_TEMPLATE";

/**
 * Without TEST_DATABASE_URL, starts the embedded PostgreSQL server for the run
 * and sets TEST_DATABASE_URL to it (the test processes start after this and
 * inherit it). Then migrates one database of each kind once per run (a vitest global setup);
 * every test database is a copy of it (tests/helpers/test-db.ts). Creating
 * and migrating an embedded database takes seconds; copying a migrated one
 * takes a fraction of that, and a PostgreSQL TEMPLATE copy about a fifth of a
 * migration.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Vitest runs a global setup for each project that lists it: once per run is enough.
  if (process.env[PGLITE_TEMPLATE_ENV]) return async () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-test-template-"));
  // Run as root, the embedded server runs as the postgres user, which must reach its folder.
  fs.chmodSync(dir, 0o755);
  const server = process.env.TEST_DATABASE_URL ? undefined : await startEmbeddedPostgres({ dir: path.join(dir, "postgres"), database: "postgres" });
  if (server) process.env.TEST_DATABASE_URL = server.url;
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const dataDir = path.join(dir, "pglite");
  const name = `notes_template_${randomBytes(6).toString("hex")}`;
  // Both at once: the embedded one is mostly this process's work, the other PostgreSQL's.
  await Promise.all([
    (async () => {
      const pglite = await openPglite(dataDir);
      await migrateDatabase({ pglite });
      await pglite.close();
      process.env[PGLITE_TEMPLATE_ENV] = dataDir;
    })(),
    (async () => {
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      await migrateDatabase({ postgresUrl: url.toString() });
      process.env[POSTGRES_TEMPLATE_ENV] = name;
    })(),
  ]);
  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
