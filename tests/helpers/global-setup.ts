import path from "node:path";
import { buildServerless } from "@/scripts/build-serverless";
import { buildStandalone, TEST_STANDALONE_DIST } from "@/scripts/build-standalone";
import { buildProductionApp } from "@/scripts/lib/build-app";
import { testEnv } from "./env";
import { chromiumExecutable } from "./system";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Builds the production app once per run: integration tests talk to
 * `next start`, as users do. TEST_SKIP_BUILD=1 reuses an existing build.
 */
export default async function setup(): Promise<void> {
  // Unpacks the bundled Chromium once, before test files run in parallel and
  // could each find it half-written (without a system Chromium only).
  const browser = await chromiumExecutable();
  if (browser.source === "bundled") process.stdout.write(`Browser tests use the bundled Chromium (${browser.path}): no system chromium found\n`);
  if (testEnv.TEST_SKIP_BUILD) return;
  // One `next build` serves every test: `next start` serves it, and its
  // standalone output is what the container and the serverless function are
  // made of (a build per deployment took three times as long).
  let started = Date.now();
  await buildProductionApp({ root: ROOT, distDir: ".next", env: { NEXT_OUTPUT: "standalone" } });
  process.stdout.write(`Built the app for tests in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // The deployments run on PostgreSQL only (tests/e2e/deploy.test.ts, serverless.test.ts).
  if (testEnv.TEST_DATABASE_URL) {
    // Packaged before the container's additions land in .next/standalone: the function gets none of them.
    started = Date.now();
    await buildServerless({ root: ROOT, prebuilt: ".next" });
    process.stdout.write(`Packaged the serverless function in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    started = Date.now();
    await buildStandalone({ root: ROOT, distDir: TEST_STANDALONE_DIST, skipNextBuild: true });
    process.stdout.write(`Made the container's folder in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}
