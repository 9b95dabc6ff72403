import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * File primitives for the data dir: atomic replace, exclusive create, and a
 * lock file shared by every process (server and CLI) that touches the dir.
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

async function writeExclusive(file: string, data: string | Uint8Array, mode: number, sync = true): Promise<void> {
  const handle = await fs.open(file, "wx", mode);
  try {
    await handle.writeFile(data);
    if (sync) await handle.sync();
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

export type FileLockOptions = {
  /** Give up after this long; default 10 s. */
  timeoutMs?: number;
  /** A lock older than this is taken to be abandoned even if its pid lives; default 30 s. */
  staleMs?: number;
};

type LockOwner = { pid: number; nonce: string };

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.nonce === "string") return { pid: value.pid, nonce: value.nonce };
  } catch {
    // being written right now, or garbage
  }
  return undefined;
}

async function isStale(lockPath: string, staleMs: number): Promise<string | undefined> {
  let text: string;
  let mtimeMs: number;
  try {
    const [content, stat] = await Promise.all([fs.readFile(lockPath, "utf8"), fs.stat(lockPath)]);
    text = content;
    mtimeMs = stat.mtimeMs;
  } catch {
    return undefined; // released meanwhile: just retry
  }
  const owner = parseOwner(text);
  const age = Date.now() - mtimeMs;
  if (owner ? !isProcessAlive(owner.pid) || age > staleMs : age > staleMs) return text;
  return undefined;
}

/**
 * Removes an abandoned lock without ever removing a fresh one: the lock is
 * renamed aside first, and if what was moved is not the lock judged stale
 * (someone broke it and re-took it meanwhile) it is put back.
 */
async function breakStaleLock(lockPath: string, staleText: string): Promise<void> {
  const aside = tempPathFor(lockPath);
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await fs.readFile(aside, "utf8").catch(() => "");
  if (moved !== staleText) await fs.link(aside, lockPath).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` while holding `lockPath`, an O_EXCL lock file naming its owner. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, staleMs = 30_000 } = options;
  const owner: LockOwner = { pid: process.pid, nonce: randomBytes(8).toString("hex") };
  const ownerText = JSON.stringify(owner);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await writeExclusive(lockPath, ownerText, 0o600, false);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const staleText = await isStale(lockPath, staleMs);
    if (staleText !== undefined) {
      await breakStaleLock(lockPath, staleText);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for lock ${lockPath}`);
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await fn();
  } finally {
    // Only remove the lock if it is still ours.
    const current = await fs.readFile(lockPath, "utf8").catch(() => "");
    if (current === ownerText) await fs.rm(lockPath, { force: true });
  }
}
