import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthDeps } from "@/lib/auth/authenticate";
import { createWithAuth } from "@/lib/auth/with-auth";
import { findUserLimitingRequests, limitApiRequests } from "@/lib/auth/api-rate-limit";
import type { DbHandle } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { VerifyOutcome } from "@/lib/identity/client";
import { createUser } from "@/lib/users/mutations";
import { createMemoryDb } from "@/tests/helpers/test-db";

let handle: DbHandle;

beforeAll(async () => {
  handle = await createMemoryDb();
  await createUser(handle.db, { email: "ada@example.com" });
  await createUser(handle.db, { email: "pending@example.com", emailVerified: false });
});
afterAll(() => handle.close());

let stderr: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  stderr = [];
});
function captureStderr() {
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
}

function setup(outcomes: VerifyOutcome[], overrides: Partial<AuthDeps> = {}) {
  const verify = vi.fn(async () => outcomes.shift() ?? { ok: false as const, error: "no more outcomes", status: 500 });
  const withAuth = createWithAuth({
    verify,
    getDb: async () => handle.db,
    getPartnerKey: () => "pk_secret_value",
    getAppUrl: () => "https://notes.example.com",
    retryDelayMs: 1,
    ...overrides,
  });
  const handler = vi.fn(async ({ user }: { user: { userId: string; email: string } }) => Response.json({ user }));
  return { verify, handler, route: withAuth(handler) };
}

const ctx = { params: Promise.resolve({}) };
const request = (headers: Record<string, string> = { "x-session-token": "st_1" }) =>
  new Request("http://notes.local:3000/api/notes", { headers });

describe("withAuth", () => {
  it("MISSING_TOKEN: 401 without calling the identity service", async () => {
    const { verify, route, handler } = setup([]);
    const variants: Record<string, string>[] = [{}, { "x-session-token": "" }, { "x-session-token": "   " }];
    for (const headers of variants) {
      const res = await route(request(headers), ctx);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Missing X-Session-Token header" });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(verify).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
  });

  it("SERVER_CONFIG_ERROR: 500 without calling the identity service, and the key is never echoed", async () => {
    captureStderr();
    const { verify, route } = setup([], { getPartnerKey: () => undefined });
    const res = await route(request(), ctx);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Server configuration error — contact support" });
    expect(verify).not.toHaveBeenCalled();
    expect(stderr.join("")).toContain("auth.partner_key_missing");
  });

  it("INVALID_TOKEN: 401 with the identity service's detail", async () => {
    const { route } = setup([{ ok: false, error: "Invalid or expired session token", status: 401 }]);
    const res = await route(request(), ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid session token: Invalid or expired session token" });
  });

  it("USER_NOT_FOUND: 401 (not 404) with the email and APP_URL, whatever Host the request names", async () => {
    const { route } = setup([{ ok: true, email: "nobody@example.com" }]);
    const forged = request({ "x-session-token": "st_1", host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "javascript" });
    const res = await route(forged, ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "User not found — sign up at https://notes.example.com first",
      email: "nobody@example.com",
    });
  });

  it("treats an account whose email is not verified as not found", async () => {
    const { route, handler } = setup([{ ok: true, email: "pending@example.com" }]);
    const res = await route(request(), ctx);
    expect(res.status).toBe(401);
    expect((await res.json()).email).toBe("pending@example.com");
    expect(handler).not.toHaveBeenCalled();
  });

  it("passes userId and email to the handler, matching the email case-insensitively", async () => {
    const { route, verify } = setup([{ ok: true, email: "Ada@Example.COM" }]);
    const res = await route(request(), ctx);
    expect(res.status).toBe(200);
    const { user } = await res.json();
    expect(user).toEqual({ userId: expect.stringMatching(/^[0-9a-f-]{36}$/), email: "Ada@Example.COM" });
    expect(verify).toHaveBeenCalledWith("pk_secret_value", "st_1");
  });

  it("retries once after an identity 5xx or network failure", async () => {
    const { route, verify } = setup([
      { ok: false, error: "Network error: cannot reach API", status: null },
      { ok: true, email: "ada@example.com" },
    ]);
    expect((await route(request(), ctx)).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(2);

    const second = setup([
      { ok: false, error: "boom", status: 503 },
      { ok: false, error: "boom again", status: 503 },
    ]);
    captureStderr();
    const res = await second.route(request(), ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid session token: boom again" });
    expect(second.verify).toHaveBeenCalledTimes(2);
    const logged = stderr.join("");
    expect(logged).toContain('"level":"error"');
    expect(logged).toContain('"cause":"identity_error"');
  });

  it("does not retry a rejected token, and logs a revoked partner key as a partner-side fault", async () => {
    captureStderr();
    const { route, verify } = setup([{ ok: false, error: "Partner key has been revoked", status: 403 }]);
    const res = await route(request(), ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid session token: Partner key has been revoked" });
    expect(verify).toHaveBeenCalledTimes(1);
    const logged = stderr.join("");
    expect(logged).toContain('"cause":"partner_key_revoked"');
    expect(logged).not.toContain("pk_secret_value");
    expect(logged).not.toContain("st_1");
  });

  it("keeps handler errors as they are: a 404 stays 404, a crash is a generic 500", async () => {
    captureStderr();
    const withAuth = createWithAuth({
      verify: async () => ({ ok: true, email: "ada@example.com" }),
      getDb: async () => handle.db,
      getPartnerKey: () => "pk",
      getAppUrl: () => "https://notes.example.com",
    });
    const missing = withAuth(async () => {
      throw new AppError("NOTE_NOT_FOUND");
    });
    const res404 = await missing(request(), ctx);
    expect(res404.status).toBe(404);
    expect(await res404.json()).toEqual({ error: "Note not found" });

    const crash = withAuth(async () => {
      throw new Error("secret internal detail");
    });
    const res500 = await crash(new Request("http://localhost/api/notes", { headers: { "x-session-token": "t", "x-request-id": "req-42" } }), ctx);
    expect(res500.status).toBe(500);
    // The request's id, in the body and the header, and in the log line that has the cause.
    expect(await res500.json()).toEqual({ error: "Internal server error", requestId: "req-42" });
    expect(res500.headers.get("x-request-id")).toBe("req-42");
    expect(stderr.join("")).toMatch(/"event":"request.unhandled","requestId":"req-42","cause":"Error: secret internal detail"/);
    expect(res500.headers.get("cache-control")).toBe("no-store");
  });

  it("answers every request with its X-Request-Id, even where no server set one (next dev): the caller's when sane, else one made for it", async () => {
    const withAuth = createWithAuth({
      verify: async () => ({ ok: true, email: "ada@example.com" }),
      getDb: async () => handle.db,
      getPartnerKey: () => "pk",
      getAppUrl: () => "https://notes.example.com",
    });
    const ok = withAuth(async () => Response.json({ ok: true }));
    const idOf = async (headers: Record<string, string>) =>
      (await ok(new Request("http://localhost/api/notes", { headers: { "x-session-token": "t", ...headers } }), ctx)).headers.get("x-request-id");
    expect(await idOf({ "x-request-id": "my-req-1" })).toBe("my-req-1");
    expect(await idOf({})).toMatch(/^[0-9a-f-]{36}$/);
    expect(await idOf({ "x-request-id": "bad id\twith spaces" })).toMatch(/^[0-9a-f-]{36}$/);
    // Refused before the handler: the same id in the header as in a 500's body would be.
    const refused = await ok(new Request("http://localhost/api/notes", { headers: { "x-request-id": "req-7" } }), ctx);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe("req-7");
  });

  it("counts each authenticated request against the user's budget and sends RateLimit headers, then 429 with Retry-After", async () => {
    captureStderr();
    const env = { API_RATE_LIMIT: 2, API_RATE_LIMIT_WINDOW: 60 } as Parameters<typeof limitApiRequests>[2];
    const withAuth = createWithAuth({
      verify: async () => ({ ok: true, email: "ada@example.com" }),
      getDb: async () => handle.db,
      getPartnerKey: () => "pk",
      getAppUrl: () => "https://notes.example.com",
      limitRequests: { findUser: (db, email) => findUserLimitingRequests(db, email, env), forUser: (db, user) => limitApiRequests(db, user, env) },
    });
    const ok = withAuth(async () => Response.json({ ok: true }));
    const missing = withAuth(async () => {
      throw new AppError("NOTE_NOT_FOUND");
    });

    const first = await ok(request(), ctx);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"api";q=2;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"api";r=1;t=\d+$/);
    // A handler's error answer carries the headers too.
    const second = await missing(request(), ctx);
    expect(second.status).toBe(404);
    expect(second.headers.get("ratelimit")).toMatch(/^"api";r=0;t=\d+$/);

    const third = await ok(request(), ctx);
    expect(third.status).toBe(429);
    const retryAfter = Number(third.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(third.headers.get("ratelimit")).toBe(`"api";r=0;t=${retryAfter}`);
    expect(await third.json()).toEqual({ error: `Too many requests — retry after ${retryAfter} seconds` });
    // Unauthenticated requests are not counted against anyone.
    expect((await ok(request({}), ctx)).headers.get("ratelimit")).toBeNull();
  });

  it("counts a browser session's request in the same window as the account's token requests, without calling the identity service", async () => {
    const env = { API_RATE_LIMIT: 3, API_RATE_LIMIT_WINDOW: 60 } as Parameters<typeof limitApiRequests>[2];
    const grace = await createUser(handle.db, { email: "grace@example.com" });
    const verify = vi.fn(async (): Promise<VerifyOutcome> => ({ ok: true, email: "grace@example.com" }));
    const withAuth = createWithAuth({
      verify,
      getDb: async () => handle.db,
      getPartnerKey: () => "pk",
      getAppUrl: () => "https://notes.example.com",
      limitRequests: { findUser: (db, email) => findUserLimitingRequests(db, email, env), forUser: (db, user) => limitApiRequests(db, user, env) },
      sessionUser: async () => ({ userId: grace.id, email: grace.email }),
    });
    const route = withAuth(async ({ user }) => Response.json({ user }), { browserSession: true });

    const bySession = await route(request({}), ctx);
    expect(bySession.status).toBe(200);
    expect(await bySession.json()).toEqual({ user: { userId: grace.id, email: "grace@example.com" } });
    expect(bySession.headers.get("ratelimit")).toMatch(/^"api";r=2;t=\d+$/);
    expect(verify).not.toHaveBeenCalled();
    const byToken = await route(request(), ctx);
    expect(byToken.headers.get("ratelimit")).toMatch(/^"api";r=1;t=\d+$/);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
