import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { exited } from "@/scripts/lib/processes";
import { BUILD_STATUS_ENV, buildStatusFile, writeBuildStatus } from "./build-status";
import { testEnv } from "./env";
import { chromiumExecutable } from "./system";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the production build, once per run, in a process of its own
 * (tests/helpers/build-for-tests.ts), and returns without waiting for it: the
 * layers that need no build run meanwhile, and each file of the layers that
 * do waits for it (tests/helpers/await-build.ts), which the build's status
 * file tells. Integration tests talk to `next start`, as users do.
 * TEST_SKIP_BUILD=1 reuses an existing build.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Vitest runs a global setup for each project that lists it: one build per run.
  if (process.env[BUILD_STATUS_ENV]) return async () => {};
  // Unpacks the bundled Chromium once, before test files run in parallel and
  // could each find it half-written (without a system Chromium only).
  const browser = await chromiumExecutable();
  if (browser.source === "bundled") process.stdout.write(`Browser tests use the bundled Chromium (${browser.path}): no system chromium found\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-test-build-"));
  const statusFile = path.join(dir, "status.json");
  process.env[BUILD_STATUS_ENV] = statusFile;
  if (testEnv.TEST_SKIP_BUILD) {
    for (const part of ["app", "deployments"] as const) writeBuildStatus(buildStatusFile(part, statusFile), { ok: true });
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/helpers/build-for-tests.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    // A group of its own, so that a run ending first stops `next build` too.
    detached: true,
  });
  const ended = exited(child).then((code) => {
    // A build that died without saying how: its output is above.
    for (const part of ["app", "deployments"] as const) {
      const file = buildStatusFile(part, statusFile);
      if (!fs.existsSync(file)) writeBuildStatus(file, { ok: false, error: `the build process ended with code ${code} (its output is above)` });
    }
  });
  return async () => {
    // A run that ends before its build did (a filtered or interrupted run) stops it.
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
    await ended;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
