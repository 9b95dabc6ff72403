import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * File primitives for the data dir: atomic replace and exclusive create. The
 * lock file every process (server and CLI) honours is lib/files/lock-file.ts.
 */

/** Creates `dir` (and parents) readable by the owner only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask and ignored for an existing dir.
  await fs.chmod(dir, 0o700);
}

function tempPathFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

async function writeExclusive(file: string, data: string | Uint8Array, mode: number): Promise<void> {
  const handle = await fs.open(file, "wx", mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; not every platform can fsync a directory.
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

/** Replaces `file` with `data` so readers see the old or the new content, never a mix. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temp = tempPathFor(file);
  try {
    await writeExclusive(temp, data, mode);
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(path.dirname(file));
}

/**
 * Creates `file` with `data` only if it does not exist yet, atomically.
 * Returns false when another writer got there first (their content stays).
 */
export async function createFileExclusive(file: string, data: string | Uint8Array, mode = 0o600): Promise<boolean> {
  const temp = tempPathFor(file);
  try {
    await writeExclusive(temp, data, mode);
    // link() fails with EEXIST instead of overwriting, unlike rename().
    await fs.link(temp, file);
    await syncDir(path.dirname(file));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    await fs.rm(temp, { force: true });
  }
}
