import fs from "node:fs";
import path from "node:path";

/** Name of the file, inside a PGlite data directory, that records which process has it open. */
export const LOCK_FILE_NAME = "pglite.lock";

/** The embedded database directory is open in another process. */
export class DatabaseLockedError extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `The database in ${dataDir} is in use by another process (pid ${pid}). ` +
        `The embedded database can be open in only one process at a time: stop that process ` +
        `(for example the running app) and try again. If no such process exists, delete ` +
        `${path.join(dataDir, LOCK_FILE_NAME)}.`,
    );
    this.name = "DatabaseLockedError";
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

// Opens in this process per lock file. Next.js dev may open the same directory
// again after a reload; the lock goes only when the last of them closes. Kept on
// globalThis so that reloaded copies of this module share it.
type LockRegistry = { held: Map<string, number>; exitHookInstalled: boolean };
const registryKey = Symbol.for("notes.pglite-locks");
const registry: LockRegistry = ((globalThis as { [registryKey]?: LockRegistry })[registryKey] ??= {
  held: new Map(),
  exitHookInstalled: false,
});
const heldLocks = registry.held;

/**
 * Takes the single-process lock on `dataDir` (which must exist) and returns
 * its release function. Throws DatabaseLockedError if a live process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  const held = heldLocks.get(lockPath) ?? 0;
  if (held === 0) acquireLockFile(dataDir, lockPath);
  heldLocks.set(lockPath, held + 1);
  installExitHook();

  let released = false;
  return () => {
    if (released) return;
    released = true;
    const remaining = (heldLocks.get(lockPath) ?? 1) - 1;
    if (remaining > 0) {
      heldLocks.set(lockPath, remaining);
      return;
    }
    heldLocks.delete(lockPath);
    removeOwnLockFile(lockPath);
  };
}

function acquireLockFile(dataDir: string, lockPath: string): void {
  // A takeover can lose a race with another process; a few rounds settle it.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createLockFile(lockPath)) return;
    const owner = readLockOwner(lockPath);
    if (owner === undefined) continue; // removed meanwhile
    if (owner === process.pid) return; // left over by this process, e.g. a module reload
    if (owner !== null && isProcessAlive(owner)) throw new DatabaseLockedError(dataDir, owner);
    takeOverStaleLock(lockPath, owner);
  }
  const owner = readLockOwner(lockPath);
  throw new DatabaseLockedError(dataDir, owner ?? 0);
}

// Written to a private file and linked into place, so the lock file never exists without its pid.
function createLockFile(lockPath: string): boolean {
  const tempPath = `${lockPath}.${process.pid}.tmp`;
  fs.writeFileSync(tempPath, `${process.pid}\n`);
  try {
    fs.linkSync(tempPath, lockPath);
    return true;
  } catch (error) {
    if (isErrno(error, "EEXIST")) return false;
    throw error;
  } finally {
    fs.rmSync(tempPath, { force: true });
  }
}

/** The pid in the lock file; null when unreadable as one, undefined when the file is gone. */
function readLockOwner(lockPath: string): number | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

// The owner died without cleaning up (a crash, or a signal Node does not turn
// into an exit). Rename rather than delete: if another process replaced the
// stale file in between, the renamed file shows it and is put back.
function takeOverStaleLock(lockPath: string, staleOwner: number | null): void {
  const asidePath = `${lockPath}.${process.pid}.stale`;
  try {
    fs.renameSync(lockPath, asidePath);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return;
    throw error;
  }
  const movedOwner = readLockOwner(asidePath);
  if (movedOwner !== staleOwner && movedOwner != null && isProcessAlive(movedOwner)) {
    try {
      fs.linkSync(asidePath, lockPath);
    } catch (error) {
      if (!isErrno(error, "EEXIST")) throw error;
    }
  }
  fs.rmSync(asidePath, { force: true });
}

function removeOwnLockFile(lockPath: string): void {
  try {
    if (readLockOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
  } catch {
    // Best effort: a lock left behind names a dead pid and is taken over.
  }
}

function installExitHook(): void {
  if (registry.exitHookInstalled) return;
  registry.exitHookInstalled = true;
  process.on("exit", () => {
    for (const lockPath of heldLocks.keys()) removeOwnLockFile(lockPath);
    heldLocks.clear();
  });
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return isErrno(error, "EPERM");
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
