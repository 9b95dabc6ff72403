import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { diffDatabaseToSchema, migrateDatabase } from "@/lib/db/migrate";
import { testEnv } from "@/tests/helpers/env";
import { expectMigratedSchema, migrationNames } from "@/tests/db/migrated-schema";

const adminUrl = testEnv.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, "../..");
// The migrations of 0.1.0 as released, where they differ from prisma/migrations:
// the revision policy they restated now lives in prisma/definitions alone.
const RELEASED_DIR = path.join(ROOT, "tests/db/fixtures/released-migrations");

/** The migration history as 0.1.0 released it: folder name and SQL, oldest first. */
function releasedMigrations(): { name: string; sql: string }[] {
  const names = [...new Set([...migrationNames(), ...fs.readdirSync(RELEASED_DIR)])].sort();
  return names.map((name) => {
    const released = path.join(RELEASED_DIR, name, "migration.sql");
    return { name, sql: fs.readFileSync(fs.existsSync(released) ? released : path.join(ROOT, "prisma/migrations", name, "migration.sql"), "utf8") };
  });
}

/** A project root holding the schema and the given migrations, as an earlier release shipped them (no definitions). */
function projectWith(migrations: { name: string; sql: string }[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "notes-released-"));
  fs.mkdirSync(path.join(root, "prisma/migrations"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "prisma/schema.prisma"), path.join(root, "prisma/schema.prisma"));
  fs.copyFileSync(path.join(ROOT, "prisma/migrations/migration_lock.toml"), path.join(root, "prisma/migrations/migration_lock.toml"));
  for (const { name, sql } of migrations) {
    fs.mkdirSync(path.join(root, "prisma/migrations", name));
    fs.writeFileSync(path.join(root, "prisma/migrations", name, "migration.sql"), sql);
  }
  return root;
}

/** Everything a migrated database holds beyond its rows and its migration records: tables, indexes, constraints, our functions and triggers. */
async function schemaOf(client: pg.Client): Promise<Record<string, unknown[]>> {
  const rows = async (sql: string) => (await client.query(sql)).rows;
  return {
    columns: await rows(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, column_name`),
    indexes: await rows("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname"),
    constraints: await rows(`SELECT conrelid::regclass::text AS table, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
    // Functions of the schema's own, not the extensions'.
    functions: await rows(`SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, pg_get_functiondef(p.oid) AS def FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1, 2`),
    triggers: await rows("SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname"),
  };
}

async function withNewDatabase<T>(fn: (postgresUrl: string) => Promise<T>): Promise<T> {
  const name = `notes_migrate_test_${randomBytes(6).toString("hex")}`;
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  await withDatabase(adminUrl!, (admin) => admin.query(`CREATE DATABASE ${name}`));
  try {
    return await fn(url.toString());
  } finally {
    await withDatabase(adminUrl!, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

async function withDatabase<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)("migrateDatabase on PostgreSQL", () => {
  it("builds what the schema describes in a fresh database and records each migration once", async () => {
    const name = `notes_migrate_test_${randomBytes(6).toString("hex")}`;
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const postgresUrl = url.toString();

    await withDatabase(adminUrl!, (admin) => admin.query(`CREATE DATABASE ${name}`));
    try {
      expect(await migrateDatabase({ postgresUrl })).toEqual({ applied: migrationNames() });
      expect(await diffDatabaseToSchema({ postgresUrl })).toBe("");

      await withDatabase(postgresUrl, (client) => expectMigratedSchema(async (sql) => (await client.query(sql)).rows));

      expect(await migrateDatabase({ postgresUrl })).toEqual({ applied: [] });

      await withDatabase(postgresUrl, (client) => client.query("DROP INDEX notes_user_id_search_tokens_idx"));
      expect(await diffDatabaseToSchema({ postgresUrl })).toContain('CREATE INDEX "notes_user_id_search_tokens_idx"');
    } finally {
      await withDatabase(adminUrl!, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });

  it("takes a database migrated by every earlier release to the same schema as a fresh one, its history kept", async () => {
    const expected = await withNewDatabase(async (postgresUrl) => {
      await migrateDatabase({ postgresUrl });
      return withDatabase(postgresUrl, schemaOf);
    });
    const released = releasedMigrations();
    // Each migration was a release: a database may stand at any of them, or before the first.
    for (let count = 0; count <= released.length; count += 1) {
      const earlier = projectWith(released.slice(0, count));
      try {
        await withNewDatabase(async (postgresUrl) => {
          await migrateDatabase({ postgresUrl }, { projectRoot: earlier });
          const withHistory = released.slice(0, count).some(({ name }) => name.endsWith("_note_revisions"));
          if (withHistory) {
            // A note written and changed under that release's policy.
            await withDatabase(postgresUrl, async (client) => {
              await client.query("INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-000000000001', 'ada@example.com')");
              await client.query(`INSERT INTO notes (id, user_id, title, content, content_text) VALUES
                ('00000000-0000-4000-8000-0000000000aa', '00000000-0000-4000-8000-000000000001', 'Plan', '[]', 'first')`);
              await client.query("UPDATE notes SET content_text = 'second', version = version + 1 WHERE id = '00000000-0000-4000-8000-0000000000aa'");
            });
          }
          await migrateDatabase({ postgresUrl });
          // The same catalogue as a fresh database's, which the test above holds to the schema.
          await withDatabase(postgresUrl, async (client) => {
            expect({ after: released[count - 1]?.name ?? "nothing", ...(await schemaOf(client)) }).toEqual({ after: released[count - 1]?.name ?? "nothing", ...expected });
            if (!withHistory) return;
            // The policy now in force records the next write, after the versions recorded before.
            await client.query("UPDATE notes SET content_text = 'third', version = version + 1 WHERE id = '00000000-0000-4000-8000-0000000000aa'");
            const history = await client.query("SELECT version, content_text FROM note_revisions ORDER BY version");
            expect(history.rows.map((row) => row.version)).toEqual([1, 2, 3]);
          });
        });
      } finally {
        fs.rmSync(earlier, { recursive: true, force: true });
      }
    }
  }, 300_000);
});
