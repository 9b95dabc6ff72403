import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verify, verifyDetailed } from "@/lib/identity/client";

const API = "http://identity.test";
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("verify()", () => {
  it("POSTs the token with the partner key as bearer and resolves the email", async () => {
    let seen: { auth: string | null; type: string | null; body: unknown } | undefined;
    server.use(
      http.post(`${API}/api/verify`, async ({ request }) => {
        seen = { auth: request.headers.get("authorization"), type: request.headers.get("content-type"), body: await request.json() };
        return HttpResponse.json({ email: "ada@example.com" });
      }),
    );
    await expect(verify("pk_live_1", "st_abc", API)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    expect(seen).toEqual({ auth: "Bearer pk_live_1", type: "application/json", body: { sessionToken: "st_abc" } });
  });

  // Every row of the identity contract's Errors table.
  it.each([
    [400, "Invalid JSON body"],
    [400, "Missing or invalid sessionToken"],
    [401, "Missing or invalid partner key"],
    [401, "Missing partner key"],
    [401, "Invalid partner key"],
    [401, "Invalid or expired session token"],
    [403, "Partner key has been revoked"],
    [500, "database exploded"],
  ])("resolves ok:false with the service's text on %i %s", async (status, error) => {
    server.use(http.post(`${API}/api/verify`, () => HttpResponse.json({ error }, { status })));
    await expect(verify("pk", "st", API)).resolves.toEqual({ ok: false, error });
    await expect(verifyDetailed("pk", "st", API)).resolves.toEqual({ ok: false, error, status });
  });

  it("resolves the network error text when the service cannot be reached", async () => {
    server.use(http.post(`${API}/api/verify`, () => HttpResponse.error()));
    await expect(verify("pk", "st", API)).resolves.toEqual({ ok: false, error: "Network error: cannot reach API" });
  });

  it("resolves the network error text on a timeout instead of hanging", async () => {
    // The service answers only once the client has given up, so the result cannot come from its answer.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post(`${API}/api/verify`, async () => {
        await answered;
        return HttpResponse.json({ email: "late@example.com" });
      }),
    );
    await expect(verify("pk", "st", API, { timeoutMs: 100 })).resolves.toEqual({
      ok: false,
      error: "Network error: cannot reach API",
    });
    answer();
  });

  it("keeps an agent name an identity service sends beside the email, when it is a short line of text", async () => {
    for (const [agent, kept] of [
      ["Research bot", { agent: "Research bot" }],
      ["x".repeat(101), {}],
      ["two\nlines", {}],
      [42, {}],
    ] as const) {
      server.use(http.post(`${API}/api/verify`, () => HttpResponse.json({ email: "ada@example.com", agent })));
      await expect(verifyDetailed("pk", "st", API)).resolves.toEqual({ ok: true, email: "ada@example.com", ...kept });
      // The contract's client library result stays { ok, email }.
      await expect(verify("pk", "st", API)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    }
  });

  it("treats a success without an email as a failure", async () => {
    server.use(http.post(`${API}/api/verify`, () => HttpResponse.json({})));
    const result = await verify("pk", "st", API);
    expect(result.ok).toBe(false);
  });

  it("keeps a non-JSON error answer as a failure with the status", async () => {
    server.use(http.post(`${API}/api/verify`, () => new HttpResponse("Bad gateway", { status: 502 })));
    await expect(verifyDetailed("pk", "st", API)).resolves.toEqual({
      ok: false,
      error: "identity service answered 502",
      status: 502,
    });
  });
});
