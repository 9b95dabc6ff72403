import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readTrafficStats, TRAFFIC_DIR_ENV } from "./api-traffic";

/**
 * Collects, across the test files' processes, how many API responses were
 * checked against the OpenAPI document, and prints the total at the end.
 */
export default function setup(): () => void {
  // Vitest runs a global setup for each project that lists it: one count per run.
  if (process.env[TRAFFIC_DIR_ENV]) return () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-traffic-"));
  process.env[TRAFFIC_DIR_ENV] = dir;
  return () => {
    const stats = readTrafficStats(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    if (stats.length === 0) return;
    const sum = (key: "operation" | "outside" | "skipped" | "violations" | "checkMs") => stats.reduce((total, s) => total + s[key], 0);
    process.stdout.write(
      `API responses checked against the OpenAPI document: ${sum("operation") + sum("outside")} in ${stats.length} files ` +
        `(${sum("operation")} of listed operations, ${sum("outside")} to unlisted methods or paths, ${sum("skipped")} auth routes not in the document); ` +
        `${sum("violations")} undeclared or non-conforming; checking took ${Math.round(sum("checkMs"))} ms\n`,
    );
  };
}
