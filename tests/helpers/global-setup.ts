import { spawnSync } from "node:child_process";
import path from "node:path";
import { testEnv } from "./env";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Builds the production app once per run: integration tests talk to
 * `next start`, as users do. TEST_SKIP_BUILD=1 reuses an existing build.
 */
export default async function setup(): Promise<void> {
  if (testEnv.TEST_SKIP_BUILD) return;
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
  process.stdout.write(`Built the app for tests in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
