import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "@/tests/helpers/api-client";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { startFakeIdentity, type FakeIdentity } from "@/tests/helpers/fake-identity";
import { useNotesStack } from "@/tests/helpers/notes-app";
import { freePort, waitFor } from "@/scripts/lib/processes";
import { startTestApp, type TestApp } from "@/tests/helpers/test-app";

const SOME_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";
// Every route, as an agent would call it.
const ROUTES: [string, string, unknown?][] = [
  ["GET", "/api"],
  ["GET", "/api/me"],
  ["GET", "/api/notes"],
  ["POST", "/api/notes", { title: "x" }],
  ["GET", `/api/notes/${SOME_ID}`],
  ["PATCH", `/api/notes/${SOME_ID}`, { title: "x" }],
  ["DELETE", `/api/notes/${SOME_ID}`],
  ["GET", "/api/tags"],
  ["POST", "/api/tags", { name: "x" }],
  ["DELETE", `/api/tags/${SOME_ID}`],
];

describe.each(TEST_DB_KINDS)("authentication on every route (%s)", (kind) => {
  const stack = useNotesStack(kind, { users: 3 });

  it.each(ROUTES)("%s %s: MISSING_TOKEN, INVALID_TOKEN, USER_NOT_FOUND", async (method, path, json) => {
    const callsBefore = stack.identity.calls;
    const missing = await stack.api(path, { method, json });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: "Missing X-Session-Token header" });
    expect(missing.headers.get("cache-control")).toBe("no-store");
    expect(missing.headers.get("www-authenticate")).toBe('SessionToken realm="notes"');
    expect(stack.identity.calls).toBe(callsBefore);

    const invalid = await stack.api(path, { method, json, token: "st_forged" });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ error: "Invalid session token: Invalid or expired session token" });
    // What an agent acts on: a standard challenge saying the token is the problem, and what to do.
    expect(invalid.headers.get("www-authenticate")).toBe(
      'SessionToken realm="notes", error="invalid_token", error_description="Session tokens are short-lived: mint a new one from the identity service and send it again in X-Session-Token"',
    );

    const stranger = await stack.api(path, { method, json, token: stack.identity.tokenFor("stranger@example.com") });
    expect(stranger.status).toBe(401);
    expect(stranger.body).toEqual({ error: `User not found — sign up at ${stack.app.url} first`, email: "stranger@example.com" });

    // The token was good: no challenge, the account is what is missing.
    expect(stranger.headers.get("www-authenticate")).toBeNull();

    const unverified = await stack.api(path, { method, json, token: stack.unverified.token() });
    expect(unverified.status).toBe(401);
    expect(unverified.body.email).toBe("pending@example.com");
  });

  it("GET /api/openapi.json and GET /api/health answer without a token, and call no one", async () => {
    const callsBefore = stack.identity.calls;
    const doc = await stack.api("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect((await stack.api("/api/health")).status).toBe(200);
    expect(stack.identity.calls).toBe(callsBefore);
  });

  it("matches the verified email to the account case-insensitively; GET /api/me names the account", async () => {
    const res = await stack.api("/api/me", { token: stack.identity.tokenFor("USER0@Example.com") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: expect.stringMatching(/^[0-9a-f-]{36}$/), email: "USER0@Example.com" });
  });

  it("retries one identity outage, then serves the request", async () => {
    const user = stack.freshUser();
    const token = user.token();
    const before = stack.identity.calls;
    stack.identity.failNext(503, "maintenance");
    const res = await stack.api("/api/notes", { token });
    expect(res.status).toBe(200);
    expect(stack.identity.calls).toBe(before + 2);
  });

  it("a revoked partner key is a 401 for the caller and an error-level log line for operators", async () => {
    stack.identity.revokePartnerKey();
    const res = await stack.api("/api/notes", { token: stack.freshUser().token() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid session token: Partner key has been revoked" });
    const logged = /"level":"error".*"cause":"partner_key_revoked"/;
    await waitFor(() => logged.test(stack.app.output()), { timeoutMs: 10_000, message: () => `${logged} in:\n${stack.app.output()}` });
    const logs = stack.app.output();
    expect(logs).not.toContain(stack.identity.partnerKey);
    expect(JSON.stringify(res.body)).not.toContain(stack.identity.partnerKey);
  });
});

describe("server-side faults", () => {
  let identity: FakeIdentity;
  let noKey: TestApp;
  let unreachable: TestApp;
  beforeAll(async () => {
    identity = await startFakeIdentity();
    [noKey, unreachable] = await Promise.all([
      startTestApp({ DATABASE_URL: "pglite:memory", IDENTITY_API_URL: identity.url, IDENTITY_PARTNER_KEY: "" }),
      startTestApp({
        DATABASE_URL: "pglite:memory",
        IDENTITY_API_URL: `http://127.0.0.1:${await freePort()}`,
        IDENTITY_PARTNER_KEY: "pk_unused",
        IDENTITY_TIMEOUT_MS: "1000",
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([noKey?.stop(), unreachable?.stop()]);
    await identity?.close();
  });

  it("SERVER_CONFIG_ERROR: 500 without calling the identity service", async () => {
    const api = apiClient(noKey.url);
    for (const [method, path, json] of ROUTES) {
      const res = await api(path, { method, json, token: identity.tokenFor("user0@example.com") });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: "Server configuration error — contact support" });
    }
    expect(identity.calls).toBe(0);
    // MISSING_TOKEN still comes first.
    expect((await api("/api/notes")).body).toEqual({ error: "Missing X-Session-Token header" });
  });

  it("an unreachable identity service is INVALID_TOKEN with the network detail, logged as a partner-side fault", async () => {
    const res = await apiClient(unreachable.url)("/api/notes", { token: "st_whatever" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid session token: Network error: cannot reach API" });
    const logged = /"level":"error".*"cause":"unreachable"/;
    await waitFor(() => logged.test(unreachable.output()), { timeoutMs: 10_000, message: () => `${logged} in:\n${unreachable.output()}` });
    expect(unreachable.output()).not.toContain("st_whatever");
  });
});
