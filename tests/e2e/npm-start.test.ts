import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collectOutput, freePort, stopChild, waitForHttp } from "@/scripts/lib/processes";
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

  // Migrations, then a server start: a loaded machine needs its time, and the wait below says what it waited for.
  it("applies the migrations to a fresh database, then serves the API", { timeout: 90_000 }, async () => {
    const port = await freePort();
    const child = spawn(process.execPath, startScript, {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: tempDatabaseUrl(),
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
    } finally {
      await stopChild(child);
    }
  });
});
