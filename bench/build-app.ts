import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The benchmark's own production build, beside any other: into `dir`, reused
 * when `skip` is set and a build is there. Type checking is left to the tests.
 * It has one route more than any other build: the framework floor,
 * `GET /api/floor` (app/api/floor/route.bench.ts).
 */
export function buildBenchApp(dir: string, skip: boolean, log: (line: string) => void): void {
  process.env.NEXT_DIST_DIR = dir;
  if (skip && existsSync(path.join(dir, "BUILD_ID"))) return;
  log(`building the production app into ${dir}`);
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_SKIP_TYPECHECK: "1", NEXT_BENCH_FLOOR: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
}
