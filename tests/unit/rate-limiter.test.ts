import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserLimitingRequests } from "@/lib/auth/api-rate-limit";
import { apiLimitKey } from "@/lib/rate-limit/keys";
import { consumeRateLimit, pruneRateLimits } from "@/lib/rate-limit/limiter";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { appErrorOf, createTestDatabase, useTestDatabase, type TestDatabase } from "@/tests/helpers/test-db";

describe.each(TEST_DB_KINDS)("consumeRateLimit on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database?.drop());

  it("counts per key in a fixed window and refuses past the limit", async () => {
    await database.withDb(async (db) => {
      const rule = { limit: 3, windowSeconds: 60 };
      const states = [];
      for (let i = 0; i < 5; i += 1) states.push(await consumeRateLimit(db, "test:a", rule));
      expect(states.map((s) => s.allowed)).toEqual([true, true, true, false, false]);
      expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0, 0]);
      for (const state of states) {
        expect(state.limit).toBe(3);
        expect(state.resetSeconds).toBeGreaterThanOrEqual(1);
        expect(state.resetSeconds).toBeLessThanOrEqual(60);
      }
      // Another key has a window of its own.
      expect((await consumeRateLimit(db, "test:b", rule)).remaining).toBe(2);
    });
  });

  it("starts a new window once the old one has ended", async () => {
    await database.withDb(async (db) => {
      const rule = { limit: 1, windowSeconds: 60 };
      expect((await consumeRateLimit(db, "test:ended", rule)).allowed).toBe(true);
      expect((await consumeRateLimit(db, "test:ended", rule)).allowed).toBe(false);
      // Move the window's start two minutes back, as if time had passed.
      await db.$executeRaw`UPDATE rate_limits SET last_request = last_request - 120000 WHERE key = 'test:ended'`;
      const fresh = await consumeRateLimit(db, "test:ended", rule);
      expect(fresh).toMatchObject({ allowed: true, remaining: 0 });
      expect(fresh.resetSeconds).toBeGreaterThan(55);
    });
  });

  it("concurrent requests are each counted once", async () => {
    await database.withDb(async (db) => {
      const rule = { limit: 10, windowSeconds: 60 };
      const states = await Promise.all(Array.from({ length: 25 }, () => consumeRateLimit(db, "test:concurrent", rule)));
      expect(states.filter((s) => s.allowed)).toHaveLength(10);
      const row = await db.rateLimit.findUniqueOrThrow({ where: { key: "test:concurrent" } });
      expect(row.count).toBe(25);
    });
  });

  it("commits its count without a WAL flush, for its own statement only", async () => {
    await database.withDb(async (db) => {
      await consumeRateLimit(db, "test:setting", { limit: 1, windowSeconds: 60 });
      const [setting] = await db.$queryRaw<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
      expect(setting?.synchronous_commit).toBe("on");
    });
  });

  it("pruning drops only windows that ended long ago", async () => {
    await database.withDb(async (db) => {
      await consumeRateLimit(db, "test:old", { limit: 1, windowSeconds: 60 });
      await db.$executeRaw`UPDATE rate_limits SET last_request = last_request - 7200000 WHERE key = 'test:old'`;
      await consumeRateLimit(db, "test:recent", { limit: 1, windowSeconds: 60 });
      await pruneRateLimits(db, 3600);
      const keys = (await db.rateLimit.findMany({ select: { key: true } })).map((row) => row.key);
      expect(keys).toContain("test:recent");
      expect(keys).not.toContain("test:old");
    });
  });
});

describe.each(TEST_DB_KINDS)("findUserLimitingRequests on %s", (kind) => {
  const database = useTestDatabase(kind);
  const settings = { API_RATE_LIMIT: 2, API_RATE_LIMIT_WINDOW: 60 };

  it("finds the verified account case-insensitively and counts the request in the same statement, then refuses past the limit", async () => {
    await database.withDb(async (db) => {
      const ada = await createUser(db, { email: "ada@example.com" });
      // Stored as typed somewhere else: the comparison is citext's, not a lower-casing of ours.
      await db.user.update({ where: { id: ada.id }, data: { email: "Ada@Example.com" } });
      const first = await findUserLimitingRequests(db, "ADA@example.COM", settings);
      expect(first).toEqual({
        id: ada.id,
        email: "Ada@Example.com",
        rateLimitHeaders: { "RateLimit-Policy": '"api";q=2;w=60', RateLimit: expect.stringMatching(/^"api";r=1;t=\d+$/) },
      });
      expect((await findUserLimitingRequests(db, "ada@example.com", settings))?.rateLimitHeaders.RateLimit).toMatch(/^"api";r=0;t=\d+$/);
      // The same window limitApiRequests counts in.
      expect((await db.rateLimit.findUniqueOrThrow({ where: { key: apiLimitKey(ada.id) } })).count).toBe(2);
      const refused = await appErrorOf(findUserLimitingRequests(db, "ada@example.com", settings));
      expect(refused).toEqual({ status: 429, error: expect.stringMatching(/^Too many requests — retry after \d+ seconds$/) });
    });
  });

  it("answers null and counts nothing for an unknown email or an account not yet verified", async () => {
    await database.withDb(async (db) => {
      const pending = await createUser(db, { email: "pending@example.com", emailVerified: false });
      expect(await findUserLimitingRequests(db, "nobody@example.com", settings)).toBeNull();
      expect(await findUserLimitingRequests(db, "pending@example.com", settings)).toBeNull();
      expect(await db.rateLimit.findUnique({ where: { key: apiLimitKey(pending.id) } })).toBeNull();
    });
  });

  it("only looks the account up when the limit is off", async () => {
    await database.withDb(async (db) => {
      const off = await createUser(db, { email: "unlimited@example.com" });
      expect(await findUserLimitingRequests(db, "unlimited@example.com", { ...settings, API_RATE_LIMIT: 0 })).toEqual({ id: off.id, email: "unlimited@example.com", rateLimitHeaders: {} });
      expect(await db.rateLimit.findUnique({ where: { key: apiLimitKey(off.id) } })).toBeNull();
    });
  });
});
