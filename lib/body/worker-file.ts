import path from "node:path";

/**
 * The conversion worker as one bundled file, written into a production
 * build's folder (its distDir) by `npm run build` (scripts/lib/build-app.ts):
 * lib/body/conversion-pool.ts loads it from there in production, so a
 * production server compiles no TypeScript at run time.
 */
export function bundledWorkerPath(root: string, distDir: string): string {
  return path.join(root, distDir, "conversion-worker.mjs");
}
