import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPglite } from "@/lib/db/pglite";
import { migrationNames } from "@/tests/db/migrated-schema";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Outcome = { code: number; stdout: string; stderr: string };

async function npmRun(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "-s", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("npm run db:migrate", () => {
  let tempDir: string;
  let dataDir: string;

  beforeEach(() => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-db-migrate-"));
    dataDir = path.join(tempDir, "pglite");
  });
  afterEach(() => {
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  it("prints each applied migration, then that the database is up to date", async () => {
    const env = { DATABASE_URL: `pglite:${dataDir}` };
    expect(await npmRun(["db:migrate"], env)).toEqual({
      code: 0,
      stdout: migrationNames().map((name) => `Applied ${name}\n`).join(""),
      stderr: "",
    });
    expect(await npmRun(["db:migrate"], env)).toEqual({ code: 0, stdout: "Database is up to date\n", stderr: "" });
  });

  it("fails with one clear line while the app holds the embedded database", async () => {
    const pglite = await openPglite(dataDir);
    try {
      const outcome = await npmRun(["db:migrate"], { DATABASE_URL: `pglite:${dataDir}` });
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toBe(
        `db:migrate failed: The database in ${dataDir} is in use by another process (pid ${process.pid}). ` +
          "The embedded database can be open in only one process at a time: stop that process (for example the running app) " +
          `and try again. If no such process exists, delete ${path.join(dataDir, "pglite.lock")}.\n`,
      );
    } finally {
      await pglite.close();
    }
  });

  it.each([
    ["an unknown scheme", "mysql://app:hunter2@127.0.0.1/notes", /must start with postgres/],
    ["an unreachable server", "postgresql://app:hunter2@127.0.0.1:1/notes", /127\.0\.0\.1:1/],
  ])("fails with one line for %s, never showing the password", async (_case, url, reason) => {
    const outcome = await npmRun(["db:migrate"], { DATABASE_URL: url });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toMatch(/^db:migrate failed: [^\n]+\n$/);
    expect(outcome.stderr).toMatch(reason);
    expect(outcome.stderr).not.toContain("hunter2");
  });
});

describe("npm run db:migration", () => {
  it("writes nothing when the history matches the schema", async () => {
    expect(await npmRun(["db:migration", "--", "nothing_new"])).toEqual({ code: 0, stdout: "No schema changes\n", stderr: "" });
  });

  it.each([[[]], [["Add-Bio"]], [["two", "words"]]])("refuses the arguments %j", async (args) => {
    const outcome = await npmRun(["db:migration", "--", ...args]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("Usage: npm run db:migration -- <name>");
  });
});
