// Before any test file's own imports, as in Next's server: the
// AsyncLocalStorage its request scope is made of (the app's modules that
// import next/server read it when they load).
import "next/dist/server/node-environment-baseline.js";
import { afterAll, afterEach, expect } from "vitest";
import { inProcessHandler, isCheckedUrl, recordResponse, takeViolations, trafficStats, TRAFFIC_DIR_ENV, writeTrafficStats } from "./api-traffic";

// A setup file of every test file: wraps fetch so that each response from an
// app the tests started (the API client, the MCP SDK's transport, a raw
// fetch) is checked against the OpenAPI document. Requests to an app whose
// route handlers run in this process are answered by them (in-process-app.ts).
// Other origins pass through untouched.
// A worker runs several test files in turn, each running this file again: fetch is wrapped once.
const ORIGINAL_FETCH = Symbol.for("notes.tests.originalFetch");
const saved = globalThis as typeof globalThis & { [ORIGINAL_FETCH]?: typeof fetch };
const originalFetch = (saved[ORIGINAL_FETCH] ??= globalThis.fetch);

globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : undefined;
  const handle = inProcessHandler(new URL(request?.url ?? String(input)));
  const response = handle ? await handle(new Request(input, init)) : await originalFetch(input, init);
  const url = new URL(response.redirected ? response.url : request?.url ?? String(input));
  if (!isCheckedUrl(url)) return response;
  const method = response.redirected ? "GET" : (init?.method ?? request?.method ?? "GET").toUpperCase();
  const body = await response.clone().text();
  const started = performance.now();
  await recordResponse(method, url, response.status, response.headers, body);
  trafficStats.checkMs += performance.now() - started;
  return response;
};

afterEach(() => {
  const found = takeViolations();
  expect(found, "responses the OpenAPI document does not declare or that do not match it").toEqual([]);
});

afterAll(() => {
  const found = takeViolations();
  writeTrafficStats(process.env[TRAFFIC_DIR_ENV], expect.getState().testPath ?? "unknown");
  expect(found, "responses (in hooks) the OpenAPI document does not declare or that do not match it").toEqual([]);
});
