import fs from "node:fs";
import path from "node:path";
import { OLD_PGLITE_DIR_NAME, type DatabaseTarget } from "@/lib/db/config";
import { migrateDatabase } from "@/lib/db/migrate";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { copyPgliteInto, isPgliteDir } from "./move-pglite";

/** A database a script can hand to the app: its target, the DATABASE_URL that names it, and how to let it go. */
export type OpenDatabase = {
  target: Exclude<DatabaseTarget, { kind: "embedded" }>;
  /** DATABASE_URL for the app: the setting itself, or the started embedded server's URL (it holds its password). */
  url: string;
  /** Resolves if the embedded server exits (never for any other database). */
  exited: Promise<number | null>;
  /** Stops the embedded server this script started; nothing for any other database. */
  stop(): Promise<void>;
};

/**
 * The database DATABASE_URL (`setting`, parsed as `target`) names, ready for
 * the app: the embedded server started when it is the embedded one (and an
 * older release's PGlite folder beside it moved in on the way); any other
 * database as it is.
 */
export async function openDatabase(setting: string | undefined, target: DatabaseTarget, log: (line: string) => void): Promise<OpenDatabase> {
  if (target.kind !== "embedded") return { target, url: setting ?? "", exited: new Promise(() => {}), stop: async () => {} };
  const server = await startEmbeddedPostgres({ dir: target.dir, log });
  try {
    const oldDir = path.join(path.dirname(target.dir), OLD_PGLITE_DIR_NAME);
    if (isPgliteDir(oldDir)) await moveOldPglite(oldDir, server.url, log);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { target: { kind: "postgres", url: server.url }, url: server.url, exited: server.exited, stop: () => server.stop() };
}

/**
 * Earlier releases kept the embedded database in PGlite (`.data/pglite`). Its
 * rows are copied into the new server's database (migrated first), then the
 * folder is renamed, not deleted, so a second start does not copy it again.
 */
async function moveOldPglite(oldDir: string, url: string, log: (line: string) => void): Promise<void> {
  log(`Moving the notes of the earlier embedded database (${oldDir}) into PostgreSQL…`);
  await migrateDatabase({ postgresUrl: url });
  let copied: Record<string, number>;
  try {
    copied = await copyPgliteInto(oldDir, url);
  } catch (error) {
    throw new Error(`Could not move the earlier embedded database in ${oldDir}: ${(error as Error).message}. Nothing was changed; its folder is as it was.`, { cause: error });
  }
  const kept = `${oldDir}-moved-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "")}`;
  fs.renameSync(oldDir, kept);
  const count = (table: string) => copied[table] ?? 0;
  log(
    `Moved ${count("users")} accounts, ${count("notes")} notes, ${count("note_revisions")} revisions, ${count("tags")} tags, ${count("attachments")} attachments ` +
      `and ${count("trashed_notes")} trashed notes. The old folder is kept as ${kept}: delete it once your notes look right.`,
  );
}
