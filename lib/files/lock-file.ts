import { randomBytes } from "node:crypto";
import fs from "node:fs";

/**
 * Lock files that every process touching a directory honours: the embedded
 * database's data directory, the identity service's state. One protocol for
 * all of them: a lock file created atomically that names its owner, taken over
 * once its owner is gone, removed only by that owner.
 *
 * Synchronous, because the database lock is released in a process "exit"
 * handler, which cannot await; the files are a few bytes on a local disk.
 * Imported by lib/ and by the identity service alike, so it stays free of
 * app-only imports.
 */

/** Who holds a lock: the process, and a nonce telling its acquisitions apart. */
type LockOwner = { pid: number; nonce: string };

export type LockFileOptions = {
  /** A lock older than this counts as abandoned even when its pid is alive (pids get reused). Default: never. */
  staleMs?: number;
  /** A lock naming this process is an earlier acquisition of its own (e.g. before a module reload): take it over as is. */
  adoptOwnPid?: boolean;
};

export type LockAttempt =
  | { acquired: true; release: () => void }
  /** `owner` is null when the lock file does not name one. */
  | { acquired: false; owner: LockOwner | null };

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, "EPERM");
  }
}

/** Takes `lockPath` if it is free or abandoned; otherwise says who holds it. Never waits. */
export function tryLockFile(lockPath: string, options: LockFileOptions = {}): LockAttempt {
  const ownerText = formatOwner({ pid: process.pid, nonce: randomBytes(8).toString("hex") });
  // A takeover can lose a race with another process; a few rounds settle it.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(lockPath, ownerText)) return { acquired: true, release: () => removeIfOwned(lockPath, ownerText) };
    const current = readLock(lockPath);
    if (current === undefined) continue; // released meanwhile
    if (options.adoptOwnPid && current.owner?.pid === process.pid) {
      return { acquired: true, release: () => removeIfOwned(lockPath, current.text) };
    }
    if (!isAbandoned(current, options.staleMs)) return { acquired: false, owner: current.owner };
    breakAbandonedLock(lockPath, current.text);
  }
  return { acquired: false, owner: readLock(lockPath)?.owner ?? null };
}

export type FileLockOptions = {
  /** Give up after this long; default 10 s. */
  timeoutMs?: number;
  /** A lock older than this is taken to be abandoned even if its pid lives; default 30 s. */
  staleMs?: number;
};

/** Runs `fn` while holding `lockPath`, waiting for a live holder up to the timeout. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, staleMs = 30_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempt = tryLockFile(lockPath, { staleMs });
    if (attempt.acquired) {
      try {
        return await fn();
      } finally {
        attempt.release();
      }
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for lock ${lockPath}`);
    // Holders keep the lock for one short write; a jittered retry spreads the waiters.
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

// The pid comes first, alone on its line, which is what older versions of the
// database lock read; older identity locks were JSON, still understood.
function formatOwner(owner: LockOwner): string {
  return `${owner.pid}\n${owner.nonce}\n`;
}

function parseOwner(text: string): LockOwner | null {
  if (text.trimStart().startsWith("{")) {
    try {
      const value = JSON.parse(text) as Partial<LockOwner>;
      if (isPid(value.pid) && typeof value.nonce === "string") return { pid: value.pid, nonce: value.nonce };
    } catch {
      // garbage
    }
    return null;
  }
  const [pidLine = "", nonce = ""] = text.split("\n");
  const pid = Number.parseInt(pidLine.trim(), 10);
  return isPid(pid) ? { pid, nonce: nonce.trim() } : null;
}

function isPid(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

type LockState = { text: string; owner: LockOwner | null; mtimeMs: number };

/** The lock as it is on disk; undefined when there is none. */
function readLock(lockPath: string): LockState | undefined {
  try {
    const text = fs.readFileSync(lockPath, "utf8");
    const { mtimeMs } = fs.statSync(lockPath);
    return { text, owner: parseOwner(text), mtimeMs };
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

// A lock that names no owner was not written by this protocol (which never
// leaves a half-written file); with an age limit it still gets that long.
function isAbandoned(lock: LockState, staleMs: number | undefined): boolean {
  const tooOld = staleMs !== undefined && Date.now() - lock.mtimeMs > staleMs;
  if (lock.owner === null) return staleMs === undefined || tooOld;
  return tooOld || !isProcessAlive(lock.owner.pid);
}

// Written to a private file and linked into place, so the lock file never
// exists without its owner; link() fails with EEXIST where rename() would overwrite.
function createExclusive(lockPath: string, ownerText: string): boolean {
  const tempPath = `${lockPath}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(tempPath, ownerText, { mode: 0o600 });
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

// Removes an abandoned lock without ever removing a fresh one: the lock is
// renamed aside first, and if what was moved is not the lock judged abandoned
// (another process broke it and took it meanwhile) it is put back.
function breakAbandonedLock(lockPath: string, abandonedText: string): void {
  const asidePath = `${lockPath}.${process.pid}.${randomBytes(6).toString("hex")}.stale`;
  try {
    fs.renameSync(lockPath, asidePath);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return;
    throw error;
  }
  try {
    if (fs.readFileSync(asidePath, "utf8") !== abandonedText) fs.linkSync(asidePath, lockPath);
  } catch (error) {
    if (!isErrno(error, "EEXIST") && !isErrno(error, "ENOENT")) throw error;
  } finally {
    fs.rmSync(asidePath, { force: true });
  }
}

function removeIfOwned(lockPath: string, ownerText: string): void {
  try {
    if (fs.readFileSync(lockPath, "utf8") === ownerText) fs.rmSync(lockPath, { force: true });
  } catch {
    // Best effort: a lock left behind names a dead pid, or ages out, and is taken over.
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
