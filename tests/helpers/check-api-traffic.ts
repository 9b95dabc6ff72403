import { afterAll, afterEach, expect } from "vitest";
import { isCheckedUrl, recordResponse, takeViolations, trafficStats, TRAFFIC_DIR_ENV, writeTrafficStats } from "./api-traffic";

// A setup file of every test file: wraps fetch so that each response from an
// app the tests started (the API client, the MCP SDK's transport, a raw
// fetch) is checked against the OpenAPI document. Other origins pass through
// untouched.
const originalFetch = globalThis.fetch;

globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await originalFetch(input, init);
  const request = input instanceof Request ? input : undefined;
  const url = new URL(response.redirected ? response.url : request?.url ?? String(input));
  if (!isCheckedUrl(url)) return response;
  const method = response.redirected ? "GET" : (init?.method ?? request?.method ?? "GET").toUpperCase();
  const body = await response.clone().text();
  const started = performance.now();
  recordResponse(method, url, response.status, response.headers, body);
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
