// The production build the tests run, made in a process of its own (the
// build steps block their process while they run): started by
// tests/helpers/global-setup.ts, it writes its outcome to the status file
// every file of the built layers waits for (tests/helpers/await-build.ts).
import path from "node:path";
import { buildServerless } from "@/scripts/build-serverless";
import { buildStandalone } from "@/scripts/build-standalone";
import { buildProductionApp } from "@/scripts/lib/build-app";
import { buildStatusFile, writeBuildStatus, type BuildStatus } from "./build-status";
import { testEnv } from "./env";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** One `next build` serves every test: `next start` serves it, and its standalone output is what the container and the serverless function are made of (a build per deployment took three times as long). */
async function buildApp(): Promise<void> {
  await timed("Built the app for tests", () => buildProductionApp({ root: ROOT, distDir: ".next", env: { NEXT_OUTPUT: "standalone" } }));
}

/** The deployments, made from the app's build while the tests that need only the app run. They run on PostgreSQL only (tests/e2e/deploy.test.ts, serverless.test.ts). */
async function buildDeployments(): Promise<void> {
  if (!testEnv.TEST_DATABASE_URL) return;
  await timed("Packaged the serverless function", () => buildServerless({ root: ROOT, prebuilt: ".next" }));
  await timed("Made the container's folder", () => buildStandalone({ root: ROOT, distDir: ".next" }));
}

/** Runs one step of the build and says how long it took. */
async function timed(done: string, step: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  await step();
  process.stdout.write(`${done} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const failed = (err: unknown): BuildStatus => ({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
const app = await buildApp().then(() => ({ ok: true }) as const, failed);
writeBuildStatus(buildStatusFile("app"), app);
// Without an app there is nothing to deploy: its tests fail with the app's error.
writeBuildStatus(buildStatusFile("deployments"), app.ok ? await buildDeployments().then(() => ({ ok: true }) as const, failed) : app);
