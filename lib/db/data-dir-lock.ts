import path from "node:path";
import { tryLockFile } from "@/lib/files/lock-file";

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
type HeldLock = { opens: number; release: () => void };
type LockRegistry = { held: Map<string, HeldLock>; exitHookInstalled: boolean };
const registryKey = Symbol.for("notes.pglite-lock-registry");
const registry: LockRegistry = ((globalThis as { [registryKey]?: LockRegistry })[registryKey] ??= {
  held: new Map(),
  exitHookInstalled: false,
});
const heldLocks = registry.held;

/**
 * Takes the single-process lock on `dataDir` (which must exist) and returns
 * its release function. Throws DatabaseLockedError if a live process holds it.
 * No age limit: a database stays open for as long as its process runs.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  let held = heldLocks.get(lockPath);
  if (!held) {
    // A lock naming this process was left by an earlier copy of this module (a reload).
    const attempt = tryLockFile(lockPath, { adoptOwnPid: true });
    if (!attempt.acquired) throw new DatabaseLockedError(dataDir, attempt.owner?.pid ?? 0);
    held = { opens: 0, release: attempt.release };
    heldLocks.set(lockPath, held);
  }
  held.opens += 1;
  installExitHook();

  let released = false;
  return () => {
    if (released) return;
    released = true;
    const current = heldLocks.get(lockPath);
    if (!current || --current.opens > 0) return;
    heldLocks.delete(lockPath);
    current.release();
  };
}

// Release is synchronous for this hook: "exit" handlers cannot await.
function installExitHook(): void {
  if (registry.exitHookInstalled) return;
  registry.exitHookInstalled = true;
  process.on("exit", () => {
    for (const held of heldLocks.values()) held.release();
    heldLocks.clear();
  });
}
