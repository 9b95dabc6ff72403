import { afterEach, describe, expect, it } from "vitest";
import { TOKEN_ERRORS } from "@/identity/api";
import { removeUser, revokeUserKey } from "@/identity/users";
import { runCleanups, startSeededService } from "./helpers";

afterEach(runCleanups);

async function postTokens(url: string, authorization?: string) {
  const response = await fetch(`${url}/api/tokens`, {
    method: "POST",
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe("POST /api/tokens", () => {
  it("mints a session token for an active personal API key", async () => {
    const { service, user } = await startSeededService({ now: () => Date.parse("2026-01-01T00:00:00Z") });
    const result = await postTokens(service.url, `Bearer ${user.apiKey}`);
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.body).toEqual({ sessionToken: expect.any(String), expiresAt: expect.any(String) });
    expect(result.body.expiresAt).toBe("2026-01-01T00:05:00.000Z");
    // Each call mints a distinct token.
    const again = await postTokens(service.url, `Bearer ${user.apiKey}`);
    expect(again.body.sessionToken).not.toBe(result.body.sessionToken);
  });

  it.each([
    ["no Authorization header", undefined, TOKEN_ERRORS.missingOrInvalidApiKey],
    ["a non-Bearer scheme", "Token abc", TOKEN_ERRORS.missingOrInvalidApiKey],
    ["Bearer with an empty key", "Bearer ", TOKEN_ERRORS.missingApiKey],
    ["an unknown key", "Bearer idk_unknown", TOKEN_ERRORS.invalidApiKey],
  ])("401 for %s", async (_name, authorization, error) => {
    const { service } = await startSeededService();
    const result = await postTokens(service.url, authorization);
    expect({ status: result.status, body: result.body }).toEqual({ status: 401, body: { error } });
  });

  it("401 for a partner key", async () => {
    const { service, partner } = await startSeededService();
    const result = await postTokens(service.url, `Bearer ${partner.partnerKey}`);
    expect({ status: result.status, body: result.body }).toEqual({ status: 401, body: { error: TOKEN_ERRORS.invalidApiKey } });
  });

  it("401 for a revoked key", async () => {
    const { service, user } = await startSeededService();
    await revokeUserKey(service.store, { key: user.apiKey });
    const result = await postTokens(service.url, `Bearer ${user.apiKey}`);
    expect({ status: result.status, body: result.body }).toEqual({ status: 401, body: { error: TOKEN_ERRORS.revokedApiKey } });
  });

  it("401 for the key of a deleted user", async () => {
    const { service, user } = await startSeededService();
    await removeUser(service.store, { email: user.email });
    const result = await postTokens(service.url, `Bearer ${user.apiKey}`);
    expect({ status: result.status, body: result.body }).toEqual({ status: 401, body: { error: TOKEN_ERRORS.invalidApiKey } });
  });
});
