import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { runIdentityCli } from "@/tests/identity/helpers";
import { expectSuccess, startE2eStack, type E2eStack, type E2eStackOptions } from "./helpers";

// Every step goes through a real process: the identity service, its CLI, the
// agent tool and the production app. Each scenario has its own stack, so
// revoking or expiring in one cannot touch another.


/** A stack of its own for the enclosing describe block, started before its tests and stopped after them. */
function stackForBlock(options: E2eStackOptions): () => E2eStack {
  let stack: E2eStack | undefined;
  beforeAll(async () => {
    stack = await startE2eStack(options);
  });
  afterAll(() => stack?.stop());
  return () => stack!;
}

/** When a session token stops being valid: the expiry (ms since the epoch) its payload names. */
function tokenExpiry(token: string): number {
  const [, payload] = token.split(".");
  return (JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { e: number }).e;
}

describe("the typical flow through real processes", () => {
  const current = stackForBlock({ email: "agent@example.com" });

  it("agent token; GET /api/notes?search finds nothing; POST /api/notes 201; the search finds it", async () => {
    const stack = current();
    const token = await stack.mintToken();
    expect(token).toMatch(/^ist1\.\S+$/);

    const before = await stack.api("/api/notes?search=standup", { token });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ notes: [], total: 0 });

    const created = await stack.api("/api/notes", {
      method: "POST",
      token,
      json: { title: "Standup", contentText: "yesterday: shipped search" },
    });
    expect(created.status).toBe(201);
    expect(created.body.note).toMatchObject({ title: "Standup", contentText: "yesterday: shipped search", content: [], tags: [] });

    const after = await stack.api("/api/notes?search=standup", { token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ notes: [created.body.note], total: 1 });
  });
});

describe("identity partner revoke", () => {
  const current = stackForBlock({ email: "agent@example.com" });

  it("turns the app's next call into 401, for old and new tokens alike", async () => {
    const stack = current();
    const token = await stack.mintToken();
    expect((await stack.api("/api/notes", { token })).status).toBe(200);

    expectSuccess(await runIdentityCli(["partner", "revoke", stack.partnerKey], stack.identityEnv), "identity partner revoke");

    const revoked = { error: "Invalid session token: Partner key has been revoked" };
    const again = await stack.api("/api/notes", { token });
    expect({ status: again.status, body: again.body }).toEqual({ status: 401, body: revoked });
    const fresh = await stack.api("/api/notes", { token: await stack.mintToken() });
    expect({ status: fresh.status, body: fresh.body }).toEqual({ status: 401, body: revoked });
  });
});

// Long enough for minting (a CLI process) and a first use on a loaded machine; the test then waits out the rest.
const TTL_SECONDS = 10;

describe(`session token expiry (IDENTITY_TOKEN_TTL_SECONDS=${TTL_SECONDS})`, () => {
  const current = stackForBlock({ email: "agent@example.com", tokenTtlSeconds: TTL_SECONDS });

  it("a token used after expiry gives 401; a freshly minted one works again", async () => {
    const stack = current();
    // Load the route before the clock matters: a short-lived token leaves no room for a cold start.
    expect((await stack.api("/api/notes")).status).toBe(401);
    const token = await stack.mintToken();
    expect((await stack.api("/api/notes", { token })).status).toBe(200);

    // The identity service runs on this machine's clock: once it has passed the token's expiry, so has the service's.
    const expiry = tokenExpiry(token);
    await waitFor(() => Date.now() > expiry, { timeoutMs: TTL_SECONDS * 1000, intervalMs: 100, message: `the clock to pass the token's expiry (${new Date(expiry).toISOString()})` });
    const expired = await stack.api("/api/notes", { token });
    expect({ status: expired.status, body: expired.body }).toEqual({
      status: 401,
      body: { error: "Invalid session token: Invalid or expired session token" },
    });

    const fresh = await stack.api("/api/notes", { token: await stack.mintToken() });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ notes: [], total: 0 });
  });
});
