import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useNotesStack } from "@/tests/helpers/notes-app";

// Per-user request budgets of the REST API and MCP, with the RateLimit header
// fields of draft-ietf-httpapi-ratelimit-headers; a small limit makes them reachable.
describe.each(TEST_DB_KINDS)("API rate limits (%s)", (kind) => {
  const stack = useNotesStack(kind, { users: 4, env: { API_RATE_LIMIT: "5", API_RATE_LIMIT_WINDOW: "120" } });

  const mcpCall = (token: string) =>
    stack.api("/api/mcp", {
      method: "POST",
      token,
      headers: { accept: "application/json, text/event-stream" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_tags", arguments: {} } },
    });

  it("every answer says the policy and what is left; past it, 429 with Retry-After", async () => {
    const user = stack.freshUser();
    const seen = [];
    for (let i = 0; i < 5; i += 1) {
      const res = i % 2 ? await mcpCall(user.token()) : await stack.api("/api/me", { token: user.token() });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"api";q=5;w=120');
      seen.push(res.headers.get("ratelimit"));
    }
    expect(seen.map((value) => value?.replace(/;t=\d+$/, ""))).toEqual(['"api";r=4', '"api";r=3', '"api";r=2', '"api";r=1', '"api";r=0']);
    const resets = seen.map((value) => Number(/;t=(\d+)$/.exec(value ?? "")?.[1]));
    for (const reset of resets) expect(reset).toBeGreaterThan(0);
    expect(Math.max(...resets)).toBeLessThanOrEqual(120);

    for (const res of [await stack.api("/api/notes", { token: user.token() }), await mcpCall(user.token())]) {
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(120);
      expect(res.headers.get("ratelimit")).toBe(`"api";r=0;t=${retryAfter}`);
      expect(res.body).toEqual({ error: `Too many requests — retry after ${retryAfter} seconds` });
    }
  });

  it("is per user: one agent's loop leaves the others alone", async () => {
    const busy = stack.freshUser();
    for (let i = 0; i < 6; i += 1) await stack.api("/api/tags", { token: busy.token() });
    expect((await stack.api("/api/tags", { token: busy.token() })).status).toBe(429);
    const other = await stack.api("/api/tags", { token: stack.freshUser().token() });
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit")).toMatch(/^"api";r=4;t=\d+$/);
  });

  it("the OpenAPI document declares the 429 and its headers on every operation", async () => {
    const doc = (await stack.api("/api/openapi.json", { token: stack.freshUser().token() })).body;
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        // A public route (the health check) spends no user's budget.
        if (operation.security?.length === 0) continue;
        expect(Object.keys(operation.responses["429"].headers), `${method} ${path}`).toEqual(["Retry-After", "RateLimit", "RateLimit-Policy"]);
      }
    }
  });

  it("requests that fail authentication are not counted against anyone", async () => {
    const res = await stack.api("/api/me", { token: "not-a-token" });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit")).toBeNull();
  });
});
