import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthDeps } from "@/lib/auth/authenticate";
import { createWithAuth } from "@/lib/auth/with-auth";
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
    getAppUrl: () => undefined,
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

  it("USER_NOT_FOUND: 401 (not 404) with the email and the request's origin", async () => {
    const { route } = setup([{ ok: true, email: "nobody@example.com" }]);
    const res = await route(request(), ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "User not found — sign up at http://notes.local:3000 first",
      email: "nobody@example.com",
    });
  });

  it("USER_NOT_FOUND names APP_URL when it is set", async () => {
    const { route } = setup([{ ok: true, email: "nobody@example.com" }], { getAppUrl: () => "https://notes.example.com" });
    const body = await (await route(request(), ctx)).json();
    expect(body.error).toBe("User not found — sign up at https://notes.example.com first");
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
      getAppUrl: () => undefined,
    });
    const missing = withAuth(async () => {
      throw new AppError("NOT_FOUND", { userMessage: "Note not found" });
    });
    const res404 = await missing(request(), ctx);
    expect(res404.status).toBe(404);
    expect(await res404.json()).toEqual({ error: "Note not found" });

    const crash = withAuth(async () => {
      throw new Error("secret internal detail");
    });
    const res500 = await crash(request(), ctx);
    expect(res500.status).toBe(500);
    expect(await res500.json()).toEqual({ error: "Internal server error" });
    expect(res500.headers.get("cache-control")).toBe("no-store");
  });
});
