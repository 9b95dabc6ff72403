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
 * Opens the embedded database with the extensions the schema needs. `dataDir`
 * null keeps it in memory. An on-disk directory is created if missing and
 * locked to this process until the returned instance is closed (or the process
 * exits); if another process has it open this throws DatabaseLockedError.
 */
export async function openPglite(dataDir: string | null): Promise<PGlite> {
  if (dataDir === null) return PGlite.create({ extensions });

  fs.mkdirSync(dataDir, { recursive: true });
  const release = lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir, { extensions });
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
