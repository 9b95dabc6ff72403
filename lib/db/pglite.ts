import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { lockDataDir } from "@/lib/db/data-dir-lock";

export { DatabaseLockedError } from "@/lib/db/data-dir-lock";

// Emails and tag names are citext; search uses trigram and btree_gin indexes.
const extensions = { btree_gin, citext, pg_trgm };

/**
 * The embedded database lives in the app's process, and its shared buffers in
 * that process's memory, which never shrinks. PostgreSQL's default of 128 MB
 * is most of the app's resident memory once a run has touched that many pages;
 * with 32 MB, pages past it are read from the operating system's file cache.
 */
const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/**
 * Opens the embedded database with the extensions the schema needs. `dataDir`
 * null keeps it in memory. An on-disk directory is created if missing and
 * locked to this process until the returned instance is closed (or the process
 * exits); if another process has it open this throws DatabaseLockedError.
 */
export async function openPglite(dataDir: string | null): Promise<PGlite> {
  if (dataDir === null) return PGlite.create({ extensions, startParams });

  // A directory chosen at run time: not one for the build to trace.
  fs.mkdirSync(/*turbopackIgnore: true*/ dataDir, { recursive: true });
  const release = lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir, { extensions, startParams });
  } catch (error) {
    release();
    throw error;
  }
  releaseOnClose(pglite, release);
  return pglite;
}

function releaseOnClose(pglite: PGlite, release: () => void): void {
  const close = pglite.close.bind(pglite);
  pglite.close = async () => {
    try {
      await close();
    } finally {
      release();
    }
  };
}
