import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCK_FILE_NAME, lockDataDir } from "@/lib/db/data-dir-lock";
import { DatabaseLockedError, openPglite } from "@/lib/db/pglite";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(import.meta.dirname, "fixtures/open-database.ts");

type Outcome = { code: number; stdout: string; stderr: string };

// A second Node process, as a second app or a migration script would be.
async function openFromAnotherProcess(dataDir: string): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", FIXTURE, dataDir], {
      cwd: ROOT,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

// The lock file names its owner's pid on its first line.
function lockOwnerPid(dataDir: string): string {
  return fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), "utf8").split("\n")[0]!;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("openPglite on a data directory", () => {
  let tempDir: string;
  let dataDir: string;

  beforeEach(() => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-pglite-lock-"));
    dataDir = path.join(tempDir, "nested", "pglite");
  });
  afterEach(() => {
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  it("opens with 32 MB of shared buffers, not PostgreSQL's 128 MB held in the app's memory", async () => {
    const pglite = await openPglite(dataDir);
    try {
      const { rows } = await pglite.query<{ shared_buffers: string }>("SHOW shared_buffers");
      expect(rows[0]?.shared_buffers).toBe("32MB");
    } finally {
      await pglite.close();
    }
  });

  it("creates the directory and loads citext and pg_trgm", async () => {
    const pglite = await openPglite(dataDir);
    try {
      await pglite.exec('CREATE EXTENSION IF NOT EXISTS citext; CREATE EXTENSION IF NOT EXISTS pg_trgm;');
      const { rows } = await pglite.query<{ same: boolean; similarity: number }>(
        "SELECT 'Ada@Example.com'::citext = 'ada@example.COM'::citext AS same, similarity('notes', 'note') AS similarity",
      );
      expect(rows[0]?.same).toBe(true);
      expect(rows[0]?.similarity).toBeGreaterThan(0);
      expect(lockOwnerPid(dataDir)).toBe(String(process.pid));
    } finally {
      await pglite.close();
    }
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  });

  it("refuses a second process while this one holds it, and the data survives", async () => {
    const pglite = await openPglite(dataDir);
    try {
      await pglite.exec("CREATE TABLE probe (id int PRIMARY KEY); INSERT INTO probe VALUES (1), (2);");

      const second = await openFromAnotherProcess(dataDir);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("DatabaseLockedError");
      expect(second.stderr).toContain(`The database in ${dataDir} is in use by another process (pid ${process.pid})`);
      expect(second.stderr).toContain("stop that process (for example the running app)");

      const { rows } = await pglite.query<{ n: number }>("SELECT count(*)::int AS n FROM probe");
      expect(rows[0]?.n).toBe(2);
    } finally {
      await pglite.close();
    }

    const reopened = await openPglite(dataDir);
    try {
      const { rows } = await reopened.query<{ n: number }>("SELECT count(*)::int AS n FROM probe");
      expect(rows[0]?.n).toBe(2);
    } finally {
      await reopened.close();
    }
  });

  it("lets another process in once this one has closed it", async () => {
    const pglite = await openPglite(dataDir);
    await pglite.close();

    const second = await openFromAnotherProcess(dataDir);
    expect(second.stderr).toBe("");
    expect(second.stdout).toMatch(/^opened \d+/);
    expect(second.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  });

  it("takes over a lock left by a process that died", async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${deadPid()}\n`);

    const pglite = await openPglite(dataDir);
    try {
      expect(lockOwnerPid(dataDir)).toBe(String(process.pid));
    } finally {
      await pglite.close();
    }
  });

  it("throws DatabaseLockedError in-process for a lock held by a live process", async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    // The parent of this test process is alive for as long as the test runs.
    fs.writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${process.ppid}\n`);

    const opening = openPglite(dataDir);
    await expect(opening).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(opening).rejects.toThrow(`in use by another process (pid ${process.ppid})`);
    expect(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), "utf8").trim()).toBe(String(process.ppid));
  });

  it("lets this process lock the directory again, keeping the lock until the last release", () => {
    fs.mkdirSync(dataDir, { recursive: true });
    const lockPath = path.join(dataDir, LOCK_FILE_NAME);
    const releaseFirst = lockDataDir(dataDir);
    const releaseSecond = lockDataDir(dataDir);
    releaseFirst();
    releaseFirst();
    expect(fs.existsSync(lockPath)).toBe(true);
    releaseSecond();
    expect(fs.existsSync(lockPath)).toBe(false);
  });
});
