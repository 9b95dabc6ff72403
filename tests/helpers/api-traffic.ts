import fs from "node:fs";
import path from "node:path";
import type { OpenApiResponseValidator } from "./openapi-validator";

/**
 * Every response the tests receive from an app they started is checked
 * against the OpenAPI document (tests/helpers/check-api-traffic.ts wraps
 * fetch; startTestApp registers the app's origin here, and an in-process
 * app its origin and handler, so its responses take the same path). Violations fail the
 * test that caused them; counts go to one file per test file, summed at the
 * end of the run.
 */
export type TrafficStats = {
  operation: number;
  outside: number;
  skipped: number;
  violations: number;
  /** Time spent checking (building the validator included), not waiting for bodies. */
  checkMs: number;
};

const origins = new Set<string>();
let validator: OpenApiResponseValidator | undefined;
const violations: string[] = [];
export const trafficStats: TrafficStats = { operation: 0, outside: 0, skipped: 0, violations: 0, checkMs: 0 };

/** Apps whose route handlers run in this process (tests/helpers/in-process-app.ts), by origin. */
const inProcess = new Map<string, (request: Request) => Promise<Response>>();

/** Answers requests to this URL's origin with `handle` instead of the network (undefined: no longer). */
export function serveOriginInProcess(url: string, handle: ((request: Request) => Promise<Response>) | undefined): void {
  if (handle) inProcess.set(new URL(url).origin, handle);
  else inProcess.delete(new URL(url).origin);
}

/** The in-process app serving this URL, if any. */
export function inProcessHandler(url: URL): ((request: Request) => Promise<Response>) | undefined {
  return inProcess.get(url.origin);
}

/** Checks the API responses of the app at this URL from now on. */
export function registerApiOrigin(url: string): void {
  origins.add(new URL(url).origin);
}

export function isCheckedUrl(url: URL): boolean {
  return origins.has(url.origin) && (url.pathname === "/api" || url.pathname.startsWith("/api/"));
}

/**
 * Checks one response of an app under test; a violation is kept for the test
 * to fail on. The validator (the whole OpenAPI document, with the app's
 * schemas) is loaded on the first response, so test files that start no app
 * do not pay for it.
 */
export async function recordResponse(method: string, url: URL, status: number, headers: Headers, body: string): Promise<void> {
  validator ??= new (await import("./openapi-validator")).OpenApiResponseValidator();
  const result = validator.check(method, url.pathname, status, headers, body);
  trafficStats[result.kind] += 1;
  if ("problem" in result && result.problem) {
    trafficStats.violations += 1;
    violations.push(`${method} ${url.pathname}${url.search} → ${status}: ${result.problem}`);
  }
}

/** The violations recorded since the last call. */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

/** Where the per-file counts go (set by the global setup). */
export const TRAFFIC_DIR_ENV = "TEST_API_TRAFFIC_DIR";

/** Writes this test file's counts and starts counting again (a worker runs several files in turn). */
export function writeTrafficStats(dir: string | undefined, file: string): void {
  const counts = { ...trafficStats };
  Object.assign(trafficStats, { operation: 0, outside: 0, skipped: 0, violations: 0, checkMs: 0 });
  if (!dir || counts.operation + counts.outside + counts.skipped === 0) return;
  fs.writeFileSync(path.join(dir, `${process.pid}-${path.basename(file)}.json`), JSON.stringify({ file, ...counts }));
}

export function readTrafficStats(dir: string): (TrafficStats & { file: string })[] {
  return fs.readdirSync(dir).map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")));
}
