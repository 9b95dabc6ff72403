import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { schemaTableNames } from "@/tests/db/migrated-schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createMigration,
  diffDatabaseToSchema,
  diffMigrationsToSchema,
  migrateDatabase,
} from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { expectMigratedSchema, migrationNames } from "@/tests/db/migrated-schema";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("migration history", () => {
  it("matches prisma/schema.prisma (run `npm run db:migration -- <name>` if not)", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("starts by creating the extensions the schema needs", () => {
    const [first] = migrationNames();
    const sql = fs.readFileSync(path.join(ROOT, "prisma/migrations", first!, "migration.sql"), "utf8");
    const statements = sql.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("--"));
    expect(statements.slice(0, 2)).toEqual([
      'CREATE EXTENSION IF NOT EXISTS "citext";',
      'CREATE EXTENSION IF NOT EXISTS "pg_trgm";',
    ]);
  });
});

describe("migrateDatabase on PGlite", () => {
  let pglite: PGlite;

  beforeEach(async () => {
    pglite = await openPglite(null);
  });
  afterEach(async () => {
    await pglite.close();
  });

  it("builds what the schema describes and records each migration once", async () => {
    expect(await migrateDatabase({ pglite })).toEqual({ applied: migrationNames() });
    expect(await diffDatabaseToSchema({ pglite })).toBe("");
    await expectMigratedSchema(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows);

    expect(await migrateDatabase({ pglite })).toEqual({ applied: [] });
  });

  it("leaves no timer behind: a script that migrates exits as soon as its work is done", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    const own = await openPglite(null);
    expect((await migrateDatabase({ pglite: own })).applied).toEqual(migrationNames());
    await own.close();
    expect(timers()).toBe(before);
  });

  it("sees a database that drifted from the schema", async () => {
    await migrateDatabase({ pglite });
    await pglite.exec("DROP INDEX notes_user_id_search_tokens_idx");
    expect(await diffDatabaseToSchema({ pglite })).toContain('CREATE INDEX "notes_user_id_search_tokens_idx"');
  });
});

describe("migrations in a project folder", () => {
  let projectRoot: string;

  beforeEach(() => {
    projectRoot = fs.mkdtempSync(path.join(os.tmpdir(), "notes-migrations-"));
    fs.mkdirSync(path.join(projectRoot, "prisma"));
    fs.copyFileSync(path.join(ROOT, "prisma/schema.prisma"), path.join(projectRoot, "prisma/schema.prisma"));
  });
  afterEach(() => {
    fs.rmSync(projectRoot, { recursive: true, force: true });
  });

  function addMigration(name: string, sql: string): void {
    const folder = path.join(projectRoot, "prisma/migrations", name);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "migration.sql"), sql);
  }

  it("creates the first migration, then one per schema change, then none", async () => {
    const first = await createMigration("init", { projectRoot, now: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)) });
    expect(first?.name).toBe("20250102030405_init");
    const initSql = fs.readFileSync(first!.path, "utf8");
    expect(initSql.startsWith('-- CreateExtension\nCREATE EXTENSION IF NOT EXISTS "btree_gin";')).toBe(true);
    // One migration from scratch describes every table the committed history builds.
    for (const table of schemaTableNames()) expect(initSql).toContain(`CREATE TABLE "${table}"`);
    expect(fs.readFileSync(path.join(projectRoot, "prisma/migrations/migration_lock.toml"), "utf8")).toContain(
      'provider = "postgresql"',
    );

    expect(await createMigration("nothing", { projectRoot })).toBeNull();

    const schemaPath = path.join(projectRoot, "prisma/schema.prisma");
    fs.writeFileSync(schemaPath, fs.readFileSync(schemaPath, "utf8").replace("  image         String?", "  image         String?\n  bio           String?"));
    const second = await createMigration("add_bio", { projectRoot, now: new Date(Date.UTC(2025, 0, 3)) });
    expect(second?.name).toBe("20250103000000_add_bio");
    expect(fs.readFileSync(second!.path, "utf8")).toBe('-- AlterTable\nALTER TABLE "users" ADD COLUMN     "bio" TEXT;\n');
    expect(await diffMigrationsToSchema({ projectRoot })).toBe("");
  }, 360_000); // a bound for a hung engine, not a speed target: it runs four times (8 s on an idle machine, over 120 s with three suites running at once)

  it("rejects names that are not lowercase letters, digits and underscores", async () => {
    for (const name of ["", "Add", "add-bio", "../up", "add bio"]) {
      await expect(createMigration(name, { projectRoot })).rejects.toThrow(/Invalid migration name/);
    }
    expect(fs.existsSync(path.join(projectRoot, "prisma/migrations"))).toBe(false);
  });

  it("stops at a failing migration and records it as failed, not applied", async () => {
    const [init] = migrationNames();
    addMigration(init!, fs.readFileSync(path.join(ROOT, "prisma/migrations", init!, "migration.sql"), "utf8"));
    addMigration("29990101000000_broken", 'CREATE TABLE "half_done" ("id" int);\nSELECT no_such_function();\n');

    const pglite = await openPglite(null);
    try {
      await expect(migrateDatabase({ pglite }, { projectRoot })).rejects.toThrow(
        /^Migration 29990101000000_broken failed to apply: .*no_such_function/,
      );
      const { rows } = await pglite.query<{ migration_name: string; finished: boolean }>(
        "SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name",
      );
      expect(rows).toEqual([
        { migration_name: init, finished: true },
        { migration_name: "29990101000000_broken", finished: false },
      ]);
      const { rows: halfDone } = await pglite.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
      expect(halfDone).toEqual([]);
      await expect(migrateDatabase({ pglite }, { projectRoot })).rejects.toThrow(/failed migrations/);
    } finally {
      await pglite.close();
    }
  });
});
