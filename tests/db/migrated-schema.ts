import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

/** Runs one SQL statement and returns its rows; PGlite and node-postgres both fit. */
export type QueryRows = (sql: string) => Promise<Record<string, unknown>[]>;

/** The migration folders, oldest first, as the engine applies them. */
export function migrationNames(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Table names the Prisma schema maps its models to (@@map), sorted. */
export function schemaTableNames(): string[] {
  const schema = fs.readFileSync(path.join(MIGRATIONS_DIR, "..", "schema.prisma"), "utf8");
  return [...schema.matchAll(/@@map\("([^"]+)"\)/g)].map((match) => match[1]!).sort();
}

function migrationChecksum(name: string): string {
  const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"));
  return createHash("sha256").update(sql).digest("hex");
}

/** What a database migrated from the history must contain, beyond "no diff to the schema". */
export async function expectMigratedSchema(query: QueryRows): Promise<void> {
  const tables = await query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
  expect(tables.map((row) => row.tablename)).toEqual(["_prisma_migrations", ...schemaTableNames()].sort());

  const extensions = await query("SELECT extname FROM pg_extension WHERE extname IN ('btree_gin', 'citext', 'pg_trgm') ORDER BY extname");
  expect(extensions.map((row) => row.extname)).toEqual(["btree_gin", "citext", "pg_trgm"]);

  const searchIndexes = await query(
    "SELECT indexname, indexdef FROM pg_indexes WHERE indexdef LIKE '%USING gin%' ORDER BY indexname",
  );
  expect(searchIndexes).toEqual([
    { indexname: "notes_user_id_search_tokens_idx", indexdef: expect.stringContaining("(user_id, search_tokens)") },
    { indexname: "search_vocabulary_user_id_token_idx", indexdef: expect.stringContaining("(user_id, token gin_trgm_ops)") },
  ]);

  // Search indexes take writes directly, with no pending list to scan (the embedded database never vacuums).
  const options = await query("SELECT relname, reloptions FROM pg_class WHERE relname IN ('notes_user_id_search_tokens_idx', 'search_vocabulary_user_id_token_idx') ORDER BY relname");
  expect(options.map((row) => [row.relname, row.reloptions])).toEqual([
    ["notes_user_id_search_tokens_idx", ["fastupdate=off"]],
    ["search_vocabulary_user_id_token_idx", ["fastupdate=off"]],
  ]);

  // The counters', the search's, the history's, the change feed's and the tag changes' triggers, which the schema cannot describe.
  const triggers = await query("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname");
  expect(triggers.map((row) => row.tgname)).toEqual([
    "note_tags_count_delete",
    "note_tags_count_insert",
    "note_tags_tag_deleted_note_versions",
    "notes_change_delete",
    "notes_change_insert",
    "notes_change_update",
    "notes_count_delete",
    "notes_count_insert",
    "notes_revision_forget",
    "notes_revision_insert",
    "notes_revision_update",
    "notes_search",
    "notes_vocabulary_delete",
    "notes_vocabulary_insert",
    "notes_vocabulary_update",
    "tags_change_delete",
    "tags_change_insert",
    "tags_change_update",
    "tags_renamed_note_versions",
    "trashed_notes_change_delete",
    "trashed_notes_revision_forget",
  ]);

  const history = await query(
    "SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name",
  );
  expect(history).toEqual(
    migrationNames().map((name) => ({
      migration_name: name,
      checksum: migrationChecksum(name),
      finished: true,
      rolled_back_at: null,
      applied_steps_count: 1,
    })),
  );

  // citext makes emails unique regardless of case.
  await query("INSERT INTO users (email) VALUES ('Ada@Example.com')");
  await expect(query("INSERT INTO users (email) VALUES ('ada@example.COM')")).rejects.toThrow(/users_email_key/);
  await query("DELETE FROM users");
}
