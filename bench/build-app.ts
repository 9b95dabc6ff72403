import { existsSync } from "node:fs";
import path from "node:path";
import { buildProductionApp } from "@/scripts/lib/build-app";

/**
 * The benchmark's own production build, beside any other: into `dir`, reused
 * when `skip` is set and a build is there. Type checking is left to the tests.
 * It has one route more than any other build: the framework floor,
 * `GET /api/floor` (app/api/floor/route.bench.ts).
 */
export async function buildBenchApp(dir: string, skip: boolean, log: (line: string) => void): Promise<void> {
  process.env.NEXT_DIST_DIR = dir;
  if (skip && existsSync(path.join(dir, "BUILD_ID"))) return;
  log(`building the production app into ${dir}`);
  await buildProductionApp({ root: process.cwd(), distDir: dir, env: { NEXT_SKIP_TYPECHECK: "1", NEXT_BENCH_FLOOR: "1" } });
}
