import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS, testEnv, type TestDbKind } from "@/tests/helpers/env";
import { startFakeIdentity, type FakeIdentity } from "@/tests/helpers/fake-identity";
import { rawRequest } from "@/tests/helpers/raw-http";
import { startTestApp, type TestApp } from "@/tests/helpers/test-app";
import { createTestDatabase, type TestDatabase } from "@/tests/helpers/test-db";

const PASSWORD = "the-right-password-1";

type LimitStack = { apps: TestApp[]; identity: FakeIdentity; database: TestDatabase; stop(): Promise<void> };

/** One database with seeded verified accounts, a fake identity service and `instances` production apps on it, mail to an outbox. */
async function startLimitStack(kind: TestDbKind, options: { emails: string[]; instances?: number; env?: Record<string, string> }): Promise<LimitStack> {
  const identity = await startFakeIdentity();
  const database = await createTestDatabase(kind);
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), "notes-outbox-"));
  await database.withDb(async (db) => {
    for (const email of options.emails) await createUser(db, { email, password: PASSWORD });
  });
  const apps: TestApp[] = [];
  for (let i = 0; i < (options.instances ?? 1); i += 1) {
    apps.push(
      await startTestApp({
        DATABASE_URL: database.url,
        IDENTITY_API_URL: identity.url,
        IDENTITY_PARTNER_KEY: identity.partnerKey,
        OUTBOX_ENABLED: "1",
        OUTBOX_DIR: outboxDir,
        LOG_LEVEL: "silent",
        ...options.env,
      }),
    );
  }
  return {
    apps,
    identity,
    database,
    async stop() {
      for (const app of apps) await app.stop();
      await identity.close();
      await database.drop();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

/** A JSON POST to an auth endpoint as a script sends it, from the app's own origin. */
function authPost(app: TestApp, endpoint: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return rawRequest(`${app.url}/api/auth${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, ...headers },
    body: JSON.stringify(body),
  });
}

describe.each(TEST_DB_KINDS)("auth rate limits on %s", (kind) => {
  let stack: LimitStack;
  beforeAll(async () => {
    stack = await startLimitStack(kind, { emails: ["guessed@example.com", "mailed@example.com"] });
  });
  afterAll(() => stack?.stop());

  it("30 wrong passwords with a new X-Forwarded-For each time hit 429 with Retry-After", async () => {
    const [app] = stack.apps;
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 30; i += 1) {
      const spoofed = { "x-forwarded-for": `198.51.100.${i + 1}`, "x-real-ip": `203.0.113.${i + 1}`, forwarded: `for=192.0.2.${i + 1}` };
      const res = await authPost(app!, "/sign-in/email", { email: "guessed@example.com", password: `guess-${i}` }, spoofed);
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter ??= res.headers["retry-after"] as string;
        expect(res.json().error).toMatch(/^Too many requests — retry after \d+ seconds$/);
      }
    }
    // Ten tries per account in 15 minutes, wherever they claim to come from.
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
    // The right password waits too: the limit is on attempts, not on failures.
    expect((await authPost(app!, "/sign-in/email", { email: "guessed@example.com", password: PASSWORD })).status).toBe(429);
  });

  it("guesses spread over many accounts hit the limit per address, whatever X-Forwarded-For says", async () => {
    const [app] = stack.apps;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await authPost(app!, "/sign-in/email", { email: `spray${i}@example.com`, password: "Winter2026!" }, { "x-forwarded-for": `192.0.2.${i + 1}` });
      statuses.push(res.status);
    }
    // The 31 attempts above came from this same address: its 20 per 15 minutes are spent.
    expect(statuses).toEqual(Array(5).fill(429));
  });

  it("password reset and verification mail: three per account an hour, from any address", async () => {
    const [app] = stack.apps;
    const resets = [];
    for (let i = 0; i < 4; i += 1) resets.push((await authPost(app!, "/request-password-reset", { email: "mailed@example.com", redirectTo: "/reset-password" }, { "x-forwarded-for": `198.51.100.${i}` })).status);
    expect(resets).toEqual([200, 200, 200, 429]);
    const mails = [];
    for (let i = 0; i < 4; i += 1) mails.push((await authPost(app!, "/send-verification-email", { email: "pending-mail@example.com" })).status);
    expect(mails).toEqual([200, 200, 200, 429]);
  });
});

describe("behind a trusted proxy (TRUSTED_PROXY_HOPS=1)", () => {
  let stack: LimitStack;
  beforeAll(async () => {
    stack = await startLimitStack("pglite", { emails: ["proxied@example.com"], env: { TRUSTED_PROXY_HOPS: "1" } });
  });
  afterAll(() => stack?.stop());

  it("the address the proxy appended counts, so clients behind it are limited apart; accounts still are limited as one", async () => {
    const [app] = stack.apps;
    // 25 accounts tried from 25 addresses: none reaches its address's limit of 20.
    for (let i = 0; i < 25; i += 1) {
      const res = await authPost(app!, "/sign-in/email", { email: `spray${i}@example.com`, password: "Winter2026!" }, { "x-forwarded-for": `spoofed, 198.51.100.${i + 1}` });
      expect(res.status).toBe(401);
    }
    // One address past its limit: only the entry the proxy wrote counts, not what the client put before it.
    const fromOne = [];
    for (let i = 0; i < 21; i += 1) {
      fromOne.push((await authPost(app!, "/sign-in/email", { email: `other${i}@example.com`, password: "x-x-x-x-x" }, { "x-forwarded-for": `10.0.0.${i}, 203.0.113.50` })).status);
    }
    expect(fromOne.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(fromOne[20]).toBe(429);
  });
});

describe.runIf(testEnv.TEST_DATABASE_URL)("two instances on one PostgreSQL database", () => {
  let stack: LimitStack;
  beforeAll(async () => {
    stack = await startLimitStack("postgres", { emails: ["shared@example.com", "agent@example.com"], instances: 2, env: { API_RATE_LIMIT: "6" } });
  });
  afterAll(() => stack?.stop());

  it("share the sign-in limits: attempts on either count against one window", async () => {
    const statuses = [];
    for (let i = 0; i < 12; i += 1) {
      const app = stack.apps[i % 2]!;
      statuses.push((await authPost(app, "/sign-in/email", { email: "shared@example.com", password: `guess-${i}` })).status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it("share the API limits per user", async () => {
    const token = stack.identity.tokenFor("agent@example.com");
    const remaining = [];
    for (let i = 0; i < 7; i += 1) {
      const app = stack.apps[i % 2]!;
      const res = await fetch(`${app.url}/api/me`, { headers: { "x-session-token": token } });
      remaining.push(res.status === 429 ? "429" : res.headers.get("ratelimit")?.match(/r=(\d+)/)?.[1]);
    }
    expect(remaining).toEqual(["5", "4", "3", "2", "1", "0", "429"]);
  });
});
