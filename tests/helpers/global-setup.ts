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
  const started = Date.now();
  await buildProductionApp({ root: ROOT, distDir: ".next" });
  process.stdout.write(`Built the app for tests in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // The container's build, for tests/e2e/deploy.test.ts (which runs on PostgreSQL
  // only): built here, before the tests, so no test competes with a build.
  if (testEnv.TEST_DATABASE_URL) {
    const standaloneStarted = Date.now();
    await buildStandalone({ root: ROOT, distDir: TEST_STANDALONE_DIST });
    process.stdout.write(`Built the container's standalone server in ${((Date.now() - standaloneStarted) / 1000).toFixed(1)} s\n`);
    // The serverless function, for tests/e2e/serverless.test.ts and docs/deploy.md's blocks.
    const serverlessStarted = Date.now();
    await buildServerless({ root: ROOT });
    process.stdout.write(`Built the serverless function in ${((Date.now() - serverlessStarted) / 1000).toFixed(1)} s\n`);
  }
}
