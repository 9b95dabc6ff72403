import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { diffDatabaseToSchema, migrateDatabase } from "@/lib/db/migrate";
import { testEnv } from "../helpers/env";
import { expectMigratedSchema, migrationNames } from "./migrated-schema";

const adminUrl = testEnv.TEST_DATABASE_URL;

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
});
