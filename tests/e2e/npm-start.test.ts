import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collectOutput, freePort, isAlive, stopChild, waitForHttp } from "@/scripts/lib/processes";
import { ROOT } from "@/tests/helpers/test-app";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDatabaseUrl(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notes-start-"));
  dirs.push(dir);
  return `pglite:${path.join(dir, "pglite")}`;
}

const startScript = [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/start.ts")];

describe("npm start", () => {
  it("refuses to start without BETTER_AUTH_SECRET, saying which variable", () => {
    const result = spawnSync(process.execPath, startScript, {
      cwd: ROOT,
      env: { ...process.env, BETTER_AUTH_SECRET: "", DATABASE_URL: tempDatabaseUrl() },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("BETTER_AUTH_SECRET is not set");
  });

  it("refuses to start without APP_URL, the one origin links are built from", () => {
    const result = spawnSync(process.execPath, startScript, {
      cwd: ROOT,
      env: { ...process.env, APP_URL: "", BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789", DATABASE_URL: tempDatabaseUrl() },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("APP_URL is not set");
  });

  // The embedded server's first start, migrations, then a server start: a loaded machine needs its time, and the wait below says what it waited for.
  it("without DATABASE_URL: starts the embedded database, applies the migrations, serves the API, and stops both on SIGTERM", { timeout: 120_000 }, async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "notes-start-"));
    dirs.push(dataDir);
    // Run as root, the database server runs as the postgres user, which must reach its folder.
    chmodSync(dataDir, 0o755);
    const child = spawn(process.execPath, startScript, {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: "",
        NOTES_DATA_DIR: dataDir,
        BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
        IDENTITY_PARTNER_KEY: "pk_unused",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(child);
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/api`, { child, output, timeoutMs: 60_000 });
      expect(res.status, output()).toBe(401);
      expect(await res.json()).toEqual({ error: "Missing X-Session-Token header" });
      expect(output()).toMatch(/Applied migration \d+_init/);
      const serverPid = Number(readFileSync(path.join(dataDir, "postgres/cluster/postmaster.pid"), "utf8").split("\n")[0]);
      expect(isAlive(serverPid)).toBe(true);
      await stopChild(child);
      expect(child.exitCode, output()).toBe(0);
      // Stopped with the app, not left behind: nothing blocks the next start.
      expect(isAlive(serverPid)).toBe(false);
      expect(existsSync(path.join(dataDir, "postgres/cluster/postmaster.pid"))).toBe(false);
    } finally {
      await stopChild(child);
    }
  });
});
