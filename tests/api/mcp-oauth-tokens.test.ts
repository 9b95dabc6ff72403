import { createHash, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { disconnectClient, endOAuthGrants, hashOAuthToken, listConnectedClients } from "@/lib/auth/oauth";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

// The rules every OAuth access token of /api/mcp keeps, checked on each
// request against the rows the OAuth provider writes: expiry, revocation, the
// resource it is bound to, its scope, its client and its account. The whole
// flow with the MCP SDK and a browser is tests/browser/mcp-oauth.test.ts.

type Grant = { token: string; clientId: string };

describe.each(TEST_DB_KINDS)("OAuth access tokens on /api/mcp (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 12 });
  const resource = () => `${stack.app.url}/api/mcp`;

  /** A client the person allowed and an access token it holds, as the provider stores them (the token hashed). */
  async function grant(user: { id: string }, overrides: { expiresInMs?: number; resources?: string[]; scopes?: string[]; name?: string } = {}): Promise<Grant> {
    const clientId = `client-${randomUUID()}`;
    const token = randomBytes(24).toString("base64url");
    await stack.database.withDb(async (db) => {
      await db.oauthClient.create({ data: { clientId, name: overrides.name ?? "Test Agent", redirectUris: ["http://127.0.0.1:9/callback"], userId: null } });
      await db.oauthConsent.create({ data: { clientId, userId: user.id, scopes: ["notes", "offline_access"], resources: [resource()] } });
      await db.oauthAccessToken.create({
        data: {
          token: hashOAuthToken(token),
          clientId,
          userId: user.id,
          scopes: overrides.scopes ?? ["notes", "offline_access"],
          resources: overrides.resources ?? [resource()],
          expiresAt: new Date(Date.now() + (overrides.expiresInMs ?? 60_000)),
        },
      });
    });
    return { token, clientId };
  }

  function call(token: string | undefined, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(`${stack.app.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_note", arguments: { title: "by OAuth" } } }),
    });
  }

  async function refusal(res: Response): Promise<{ status: number; body: unknown; challenge: string | null }> {
    return { status: res.status, body: await res.json(), challenge: res.headers.get("www-authenticate") };
  }

  const challenge = (invalid: boolean) =>
    `Bearer resource_metadata="${stack.app.url}/.well-known/oauth-protected-resource/api/mcp", scope="notes offline_access"${invalid ? ', error="invalid_token"' : ""}`;

  it("acts for the token's account and records the client as the agent", async () => {
    const user = stack.freshUser();
    const { token } = await grant(user, { name: "Claude Code" });
    const res = await call(token);
    expect(res.status).toBe(200);
    const created = (await res.json()).result.structuredContent;
    const history = await stack.api(`/api/notes/${created.note.id}/revisions`, { token: user.token() });
    expect(history.status).toBe(200);
    expect(history.body.revisions[0].author).toEqual({ kind: "mcp", email: user.email, agent: "Claude Code" });
  });

  it("401 with the challenge: none, expired, other resource, no notes scope; the contract's bodies", async () => {
    const user = stack.freshUser();
    expect(await refusal(await call(undefined))).toEqual({ status: 401, body: { error: "Missing X-Session-Token header" }, challenge: challenge(false) });
    const cases: [Parameters<typeof grant>[1], string][] = [
      [{ expiresInMs: -1000 }, "the access token has expired; refresh it"],
      [{ resources: ["https://elsewhere.example/api/mcp"] }, `the access token is not for ${resource()}`],
      [{ scopes: ["offline_access"] }, "the access token lacks the notes scope"],
    ];
    for (const [overrides, detail] of cases) {
      const { token } = await grant(user, overrides);
      expect(await refusal(await call(token)), detail).toEqual({ status: 401, body: { error: `Invalid session token: ${detail}` }, challenge: challenge(true) });
    }
    // A token nobody issued is an identity token to verify, refused as before.
    expect(await refusal(await call("not-a-token"))).toEqual({ status: 401, body: { error: "Invalid session token: Invalid or expired session token" }, challenge: challenge(true) });
  });

  it("a disconnected client, a new password or a deleted account ends access at the next request", async () => {
    const user = stack.freshUser();
    const first = await grant(user, { name: "First" });
    const second = await grant(user, { name: "Second" });
    expect((await call(first.token)).status).toBe(200);
    await stack.database.withDb(async (db) => {
      expect((await listConnectedClients(db, user.id)).map((client) => client.name).sort()).toEqual(["First", "Second"]);
      expect(await disconnectClient(db, user.id, first.clientId)).toBe(true);
      expect(await disconnectClient(db, user.id, first.clientId)).toBe(false);
      expect((await listConnectedClients(db, user.id)).map((client) => client.name)).toEqual(["Second"]);
    });
    expect((await call(first.token)).status).toBe(401);
    expect((await call(second.token)).status).toBe(200);

    await stack.database.withDb((db) => endOAuthGrants(db, user.id));
    expect((await call(second.token)).status).toBe(401);

    const other: SeededUser = stack.freshUser();
    const third = await grant(other);
    expect((await call(third.token)).status).toBe(200);
    await stack.database.withDb((db) => db.user.delete({ where: { id: other.id } }));
    expect((await call(third.token)).status).toBe(401);
  });

  it("x-session-token comes first and works unchanged beside a bearer token", async () => {
    const user = stack.freshUser();
    const res = await call("not-a-token", { "x-session-token": user.token() });
    expect(res.status).toBe(200);
  });

  it("the authorization code flow with PKCE, server side: register, authorize, consent, token, refresh, revoke", async () => {
    const origin = stack.app.url;
    const email = `oauth-${randomUUID()}@example.com`;
    const password = "oauth-password-1";
    await stack.database.withDb((db) => createUser(db, { email, password }));
    const redirectUri = "http://127.0.0.1:9/callback";

    const registered = await fetch(`${origin}/api/auth/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Flow Client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const clientId = (await registered.json()).client_id as string;

    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ email, password }) });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");

    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${origin}/api/auth/oauth2/authorize`);
    for (const [name, value] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: "notes offline_access",
      state: "s1",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      resource: resource(),
      prompt: "consent",
    })) authorize.searchParams.set(name, value);
    const toConsent = await fetch(authorize, { headers: { cookie }, redirect: "manual" });
    expect(toConsent.status, await toConsent.clone().text()).toBe(302);
    const consentUrl = new URL(toConsent.headers.get("location")!, origin);
    expect(consentUrl.pathname).toBe("/oauth/consent");

    const consent = await fetch(`${origin}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie },
      body: JSON.stringify({ accept: true, oauth_query: consentUrl.search.slice(1) }),
    });
    expect(consent.status, await consent.clone().text()).toBe(200);
    const back = new URL((await consent.json()).url);
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("state")).toBe("s1");

    const token = (body: Record<string, string>) =>
      fetch(`${origin}/api/auth/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ client_id: clientId, resource: resource(), ...body }) });
    const exchanged = await token({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: redirectUri, code_verifier: verifier });
    expect(exchanged.status, await exchanged.clone().text()).toBe(200);
    const first = await exchanged.json();
    expect(first.refresh_token).toEqual(expect.any(String));
    expect((await call(first.access_token)).status).toBe(200);

    const refreshed = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const second = await refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await call(second.access_token)).status).toBe(200);

    const revoked = await fetch(`${origin}/api/auth/oauth2/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: clientId, token: second.access_token, token_type_hint: "access_token" }),
    });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    expect((await call(second.access_token)).status).toBe(401);

    // Deny: the client is told so, with its state, and gets no code.
    authorize.searchParams.set("state", "s2");
    const askedAgain = await fetch(authorize, { headers: { cookie }, redirect: "manual" });
    const denied = await fetch(`${origin}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie },
      body: JSON.stringify({ accept: false, oauth_query: new URL(askedAgain.headers.get("location")!, origin).search.slice(1) }),
    });
    const deniedUrl = new URL((await denied.json()).url);
    expect([deniedUrl.searchParams.get("error"), deniedUrl.searchParams.get("state"), deniedUrl.searchParams.get("code")]).toEqual(["access_denied", "s2", null]);
  });
});
