import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VERIFY_ERRORS } from "@/lib/identity/contract";
import { verify } from "@/lib/identity/client";
import { mintSessionToken } from "@/identity/credentials";
import { addPartnerKey, revokePartnerKey } from "@/identity/partners";
import { addUserKey, removeUser, revokeUserKey } from "@/identity/users";
import { mintToken, postVerify, runCleanups, startSeededService, startTestService } from "./helpers";
import { rawRequest } from "@/tests/helpers/raw-http";

afterEach(runCleanups);

describe("POST /api/verify", () => {
  it("answers 200 with the user's email for a valid partner key and token", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    const response = await fetch(`${service.url}/api/verify`, {
      method: "POST",
      headers: { Authorization: `Bearer ${partner.partnerKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ sessionToken: token }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ email: "alice@example.com" });
  });

  it("works unchanged through the notes service's client library", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    await expect(verify(partner.partnerKey, token, service.url)).resolves.toEqual({ ok: true, email: "alice@example.com" });
    await expect(verify(partner.partnerKey, `${token}x`, service.url)).resolves.toEqual({
      ok: false,
      error: VERIFY_ERRORS.invalidOrExpiredToken,
    });
    await revokePartnerKey(service.store, { key: partner.partnerKey });
    await expect(verify(partner.partnerKey, token, service.url)).resolves.toEqual({
      ok: false,
      error: VERIFY_ERRORS.revokedPartnerKey,
    });
  });

  describe("errors table, in the contract's precedence", () => {
    // Each row: how the request is built from a seeded service, and the exact answer.
    type Seed = Awaited<ReturnType<typeof startSeededService>> & { token: string; revokedKey: string };
    const rows: { name: string; auth: (s: Seed) => string | undefined; body: (s: Seed) => string | undefined; status: number; error: string }[] = [
      { name: "no Authorization header", auth: () => undefined, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "Basic scheme", auth: (s) => `Basic ${s.partner.partnerKey}`, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "lower-case bearer", auth: (s) => `bearer ${s.partner.partnerKey}`, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "Bearer without a space", auth: (s) => `Bearer${s.partner.partnerKey}`, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "bare key", auth: (s) => s.partner.partnerKey, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "header check before body check", auth: () => undefined, body: () => "{not json", status: 401, error: VERIFY_ERRORS.missingOrInvalidPartnerKey },
      { name: "Bearer with an empty key", auth: () => "Bearer ", body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingPartnerKey },
      { name: "Bearer with only spaces", auth: () => "Bearer    ", body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.missingPartnerKey },
      { name: "unknown partner key", auth: () => "Bearer ptk_not-a-real-key", body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.invalidPartnerKey },
      { name: "user API key used as partner key", auth: (s) => `Bearer ${s.user.apiKey}`, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 401, error: VERIFY_ERRORS.invalidPartnerKey },
      { name: "unknown partner key before body check", auth: () => "Bearer nope", body: () => "{not json", status: 401, error: VERIFY_ERRORS.invalidPartnerKey },
      { name: "revoked partner key", auth: (s) => `Bearer ${s.revokedKey}`, body: (s) => JSON.stringify({ sessionToken: s.token }), status: 403, error: VERIFY_ERRORS.revokedPartnerKey },
      { name: "revoked partner key before body check", auth: (s) => `Bearer ${s.revokedKey}`, body: () => "{not json", status: 403, error: VERIFY_ERRORS.revokedPartnerKey },
      { name: "body not JSON", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => "{not json", status: 400, error: VERIFY_ERRORS.invalidJson },
      { name: "empty body", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => undefined, status: 400, error: VERIFY_ERRORS.invalidJson },
      { name: "sessionToken missing", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => "{}", status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "sessionToken a number", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => '{"sessionToken":123}', status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "sessionToken null", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => '{"sessionToken":null}', status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "body JSON null", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => "null", status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "body JSON array", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: (s) => JSON.stringify([s.token]), status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "body JSON string", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: (s) => JSON.stringify(s.token), status: 400, error: VERIFY_ERRORS.invalidSessionToken },
      { name: "sessionToken empty string", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => '{"sessionToken":""}', status: 401, error: VERIFY_ERRORS.invalidOrExpiredToken },
      { name: "sessionToken garbage", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: () => '{"sessionToken":"garbage"}', status: 401, error: VERIFY_ERRORS.invalidOrExpiredToken },
      { name: "sessionToken is a user API key", auth: (s) => `Bearer ${s.partner.partnerKey}`, body: (s) => JSON.stringify({ sessionToken: s.user.apiKey }), status: 401, error: VERIFY_ERRORS.invalidOrExpiredToken },
    ];

    it.each(rows)("$name → $status $error", async (row) => {
      const seeded = await startSeededService();
      const revoked = await addPartnerKey(seeded.service.store, { email: "old@example.com" });
      await revokePartnerKey(seeded.service.store, { key: revoked.partnerKey });
      const seed: Seed = { ...seeded, token: await mintToken(seeded.service.url, seeded.user.apiKey), revokedKey: revoked.partnerKey };
      const result = await postVerify(seeded.service.url, { authorization: row.auth(seed), body: row.body(seed) });
      expect(result).toEqual({ status: row.status, body: { error: row.error } });
    });
  });

  it("answers 500 with the error message on an unexpected failure", async () => {
    const { service, partner } = await startSeededService();
    const statePath = path.join(service.dataDir, "state.json");
    await fs.writeFile(statePath, '{"users": [ truncated');
    const result = await postVerify(service.url, { authorization: `Bearer ${partner.partnerKey}`, body: '{"sessionToken":"x"}' });
    expect(result).toEqual({ status: 500, body: { error: `Identity state file ${statePath} is not valid JSON` } });
    expect(service.logs).toContain(`error: Identity state file ${statePath} is not valid JSON`);
  });

  it("answers 413 JSON for an oversized body", async () => {
    const { service, partner } = await startSeededService();
    const result = await postVerify(service.url, {
      authorization: `Bearer ${partner.partnerKey}`,
      body: JSON.stringify({ sessionToken: "x".repeat(100_000) }),
    });
    expect(result).toEqual({ status: 413, body: { error: "Request body too large" } });
  });

  it.each([
    ["declared", {}],
    ["chunked", { "transfer-encoding": "chunked" }],
  ])("closes the connection after a 413 on a %s body, whose rest it does not read", async (_, framing) => {
    const { service, partner } = await startSeededService();
    const res = await rawRequest(`${service.url}/api/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${partner.partnerKey}`, "content-type": "application/json", ...framing },
      body: JSON.stringify({ sessionToken: "x".repeat(100_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ error: "Request body too large" });
    expect(res.headers.connection).toBe("close");
  });
});

describe("partner key and session token states", () => {
  it("active partner key → revoked: verify answers 403 from then on, even via the CLI-side store", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    const call = { authorization: `Bearer ${partner.partnerKey}`, body: JSON.stringify({ sessionToken: token }) };
    expect((await postVerify(service.url, call)).status).toBe(200);
    await revokePartnerKey(service.store, { key: partner.keyId });
    expect(await postVerify(service.url, call)).toEqual({ status: 403, body: { error: VERIFY_ERRORS.revokedPartnerKey } });
  });

  it("valid session token → expired after its lifetime: 401 with the invalid-or-expired message", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { service, user, partner } = await startSeededService({ tokenTtlSeconds: 1, now: () => now });
    const token = await mintToken(service.url, user.apiKey);
    const call = { authorization: `Bearer ${partner.partnerKey}`, body: JSON.stringify({ sessionToken: token }) };
    expect((await postVerify(service.url, call)).status).toBe(200);
    now += 999;
    expect((await postVerify(service.url, call)).status).toBe(200);
    now += 1;
    expect(await postVerify(service.url, call)).toEqual({ status: 401, body: { error: VERIFY_ERRORS.invalidOrExpiredToken } });
  });

  it("a token is valid for five minutes by default", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const { service, user } = await startSeededService({ now: () => now });
    const response = await fetch(`${service.url}/api/tokens`, { method: "POST", headers: { Authorization: `Bearer ${user.apiKey}` } });
    const { expiresAt } = (await response.json()) as { expiresAt: string };
    expect(expiresAt).toBe("2026-01-01T00:05:00.000Z");
  });
});

describe("session token binding", () => {
  async function setup() {
    const seeded = await startSeededService();
    const token = await mintToken(seeded.service.url, seeded.user.apiKey);
    const check = (sessionToken: string) =>
      postVerify(seeded.service.url, { authorization: `Bearer ${seeded.partner.partnerKey}`, body: JSON.stringify({ sessionToken }) });
    return { ...seeded, token, check };
  }
  const rejected = { status: 401, body: { error: VERIFY_ERRORS.invalidOrExpiredToken } };

  it("rejects every single-character change, truncation and extension", async () => {
    const { token, check } = await setup();
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    const variants = new Set<string>([token.slice(0, -1), `${token}A`, `${token}.`, token.replace("ist1.", "ist2."), token.split(".").slice(0, 2).join(".")]);
    // Every position, including the signature's last character, whose low bits base64 decoding ignores.
    for (let at = 0; at < token.length; at += 1) if (token[at] !== ".") variants.add(flip(token, at));
    const results = await Promise.all([...variants].map(check));
    for (const result of results) expect(result).toEqual(rejected);
    expect((await check(token)).status).toBe(200);
  });

  it("rejects one user's claims under another token's signature", async () => {
    const { service, token, check } = await setup();
    const bob = await addUserKey(service.store, { email: "bob@example.com" });
    const bobToken = await mintToken(service.url, bob.apiKey);
    const [version, , signature] = token.split(".");
    const [, bobPayload] = bobToken.split(".");
    expect(await check(`${version}.${bobPayload}.${signature}`)).toEqual(rejected);
    expect(await check(bobToken)).toEqual({ status: 200, body: { email: "bob@example.com" } });
  });

  it("rejects a token signed with another server's secret, for the same user and key ids", async () => {
    const { service, user, check } = await setup();
    const forged = mintSessionToken({ secret: Buffer.alloc(32, 7), userId: user.userId, keyId: user.keyId, ttlSeconds: 300 });
    expect(await check(forged.sessionToken)).toEqual(rejected);
    // And one minted by a whole other service instance.
    const other = await startTestService();
    const otherUser = await addUserKey(other.store, { email: "alice@example.com" });
    expect(await check(await mintToken(other.url, otherUser.apiKey))).toEqual(rejected);
    // The same forgery with this service's own secret would pass: the secret is what binds.
    const secret = Buffer.from((await fs.readFile(path.join(service.dataDir, "server-secret"), "utf8")).trim(), "hex");
    const genuine = mintSessionToken({ secret, userId: user.userId, keyId: user.keyId, ttlSeconds: 300 });
    expect((await check(genuine.sessionToken)).status).toBe(200);
  });

  it("rejects tokens of a revoked personal API key, not those of the user's other keys", async () => {
    const { service, user, token, check } = await setup();
    const second = await addUserKey(service.store, { email: "ALICE@example.com" });
    expect(second.createdUser).toBe(false);
    const secondToken = await mintToken(service.url, second.apiKey);
    await revokeUserKey(service.store, { key: user.apiKey });
    expect(await check(token)).toEqual(rejected);
    expect(await check(secondToken)).toEqual({ status: 200, body: { email: "alice@example.com" } });
  });

  it("rejects tokens of a deleted user", async () => {
    const { service, token, check } = await setup();
    await removeUser(service.store, { email: "alice@example.com" });
    expect(await check(token)).toEqual(rejected);
  });
});

describe("other routes", () => {
  it("GET /health → 200 { ok: true }", async () => {
    const service = await startTestService();
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it.each([
    ["GET", "/api/verify", "POST"],
    ["PUT", "/api/verify", "POST"],
    ["GET", "/api/tokens", "POST"],
    ["DELETE", "/health", "GET, HEAD"],
    ["POST", "/health", "GET, HEAD"],
  ])("%s %s → 405 JSON with Allow: %s", async (method, route, allow) => {
    const service = await startTestService();
    const response = await fetch(`${service.url}${route}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(await response.json()).toEqual({ error: "Method not allowed" });
  });

  it.each([["GET", "/"], ["POST", "/api/verify/extra"], ["GET", "/api"], ["POST", "/api/token"]])("%s %s → 404 JSON", async (method, route) => {
    const service = await startTestService();
    const response = await fetch(`${service.url}${route}`, { method });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });

  it("logs method, route, status and duration, never keys or tokens", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    await postVerify(service.url, { authorization: `Bearer ${partner.partnerKey}`, body: JSON.stringify({ sessionToken: token }) });
    await fetch(`${service.url}/api/verify/${token}?key=${partner.partnerKey}`);
    await fetch(`${service.url}/health?token=${token}`);
    expect(service.logs).toHaveLength(4);
    expect(service.logs[0]).toMatch(/^POST \/api\/tokens 200 \d+\.\dms$/);
    expect(service.logs[1]).toMatch(/^POST \/api\/verify 200 \d+\.\dms$/);
    expect(service.logs[2]).toMatch(/^GET \(unmatched\) 404 \d+\.\dms$/);
    expect(service.logs[3]).toMatch(/^GET \/health 200 \d+\.\dms$/);
    for (const secret of [token, user.apiKey, partner.partnerKey, ...token.split(".").slice(1)]) {
      expect(service.logs.join("\n")).not.toContain(secret);
    }
  });
});
