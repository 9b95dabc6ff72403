import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIdentityCli } from "@/tests/identity/helpers";
import { expectSuccess, startE2eStack, type E2eStack } from "./helpers";

// Every step goes through a real process: the identity service, its CLI, the
// agent tool and the production app. Each scenario has its own stack, so
// revoking or expiring in one cannot touch another.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the typical flow through real processes", () => {
  let stack: E2eStack;
  beforeAll(async () => {
    stack = await startE2eStack({ email: "agent@example.com" });
  });
  afterAll(() => stack?.stop());

  it("agent token; GET /api/notes?search finds nothing; POST /api/notes 201; the search finds it", async () => {
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
  let stack: E2eStack;
  beforeAll(async () => {
    stack = await startE2eStack({ email: "agent@example.com" });
  });
  afterAll(() => stack?.stop());

  it("turns the app's next call into 401, for old and new tokens alike", async () => {
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

describe("session token expiry (IDENTITY_TOKEN_TTL_SECONDS=1)", () => {
  let stack: E2eStack;
  beforeAll(async () => {
    stack = await startE2eStack({ email: "agent@example.com", tokenTtlSeconds: 1 });
    // Load the route before the clock matters: a one-second token leaves no room for a cold start.
    expect((await stack.api("/api/notes")).status).toBe(401);
  });
  afterAll(() => stack?.stop());

  it("a token used after expiry gives 401; a freshly minted one works again", async () => {
    const token = await stack.mintToken();
    expect((await stack.api("/api/notes", { token })).status).toBe(200);

    await sleep(1500);
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
