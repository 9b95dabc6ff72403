import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { screenshot, startBrowserStack, type BrowserStack } from "@/tests/helpers/browser";

// An MCP client that knows only the server's URL, as the MCP authorization
// spec (2025-11-25) has it: the official SDK's OAuth support finds the
// authorization server from the 401, registers itself, sends the person to
// sign in and allow it in Chromium (PKCE), calls tools, refreshes its expired
// access token, and is refused once its token is revoked or the person
// disconnects it on the account page.

const CLIENT_NAME = "Notes OAuth Test Client";
// Nothing listens here: the browser's navigation to it carries the code, which the test reads.
const REDIRECT_URL = "http://127.0.0.1:9/callback";
const ACCESS_TOKEN_TTL_SECONDS = 5;

/** The SDK's client side of OAuth, kept in memory: what a desktop MCP client stores on disk. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT_URL;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: CLIENT_NAME,
    redirect_uris: [REDIRECT_URL],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
  }
}

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError?: boolean };

describe("MCP over OAuth: a client added by URL alone", () => {
  let stack: BrowserStack;
  const person = { email: "oauth-person@example.com", password: "oauth-password-1" };
  const provider = new MemoryOAuthProvider();
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startBrowserStack({ accounts: [person], env: { MCP_ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS) } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
  });

  const mcpUrl = () => new URL("/api/mcp", stack.app.url);

  async function connect(): Promise<Client> {
    const client = new Client({ name: "oauth-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    clients.push(client);
    return client;
  }

  /** A JSON-RPC request to /api/mcp with this bearer token (or none), outside the SDK. */
  function rawCall(token?: string): Promise<Response> {
    return fetch(mcpUrl(), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  }

  /** The person's part: sign in to Notes at the authorization URL, allow the client; the code the browser is sent back with. */
  async function allowInBrowser(page: Page, authorizationUrl: URL): Promise<string> {
    const redirected = page.waitForRequest((request) => request.url().startsWith(REDIRECT_URL), { timeout: 30_000 });
    await page.goto(authorizationUrl.href);
    await page.waitForURL(/\/sign-in\?/);
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel("Password", { exact: true }).fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/oauth\/consent\?/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(`Allow ${CLIENT_NAME}?`);
    await screenshot(page, "oauth-consent");
    await page.getByRole("button", { name: "Allow" }).click();
    const callback = new URL((await redirected).url());
    expect(callback.searchParams.get("state")).toBe(authorizationUrl.searchParams.get("state"));
    return callback.searchParams.get("code")!;
  }

  it("challenges, publishes its metadata, and serves the person's notes after consent; refreshes; ends on revocation and on disconnect", async () => {
    // The challenge: the contract's body, and where the client finds the rest.
    const missing = await rawCall();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "Missing X-Session-Token header" });
    const metadataUrl = `${stack.app.url}/.well-known/oauth-protected-resource/api/mcp`;
    expect(missing.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}", scope="notes offline_access"`);

    // RFC 9728 at both paths, RFC 8414 at the issuer's path-suffixed one.
    for (const url of [metadataUrl, `${stack.app.url}/.well-known/oauth-protected-resource`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const metadata = await res.json();
      expect(metadata.resource).toBe(mcpUrl().href);
      expect(metadata.authorization_servers).toEqual([`${stack.app.url}/api/auth`]);
    }
    const server = await (await fetch(`${stack.app.url}/.well-known/oauth-authorization-server/api/auth`)).json();
    expect(server.issuer).toBe(`${stack.app.url}/api/auth`);
    expect(server.code_challenge_methods_supported).toEqual(["S256"]);
    expect(server.registration_endpoint).toBe(`${stack.app.url}/api/auth/oauth2/register`);
    expect(server.revocation_endpoint).toBe(`${stack.app.url}/api/auth/oauth2/revoke`);
    expect((await fetch(`${stack.app.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    expect((await fetch(`${stack.app.url}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);

    // Discovery from the 401, registration, PKCE: the SDK stops at the person's part.
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcpUrl().href);

    const { page } = await stack.newPage();
    const code = await allowInBrowser(page, authorizationUrl);
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await transport.finishAuth(code);
    const first = provider.saved!;
    expect(first.refresh_token).toBeTruthy();
    expect(first.expires_in).toBe(ACCESS_TOKEN_TTL_SECONDS);

    // Tool calls as the person; the history names the client as the agent.
    const client = await connect();
    const created = (await client.callTool({ name: "create_note", arguments: { title: "From an OAuth client", content: "Hello" } })) as ToolResult;
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    const noteId = created.structuredContent!.note.id as string;
    const listed = await stack.api("/api/notes", { token: stack.tokenFor(person.email) });
    expect(listed.body.notes.map((note: { id: string }) => note.id)).toContain(noteId);
    const revisions = (await client.callTool({ name: "list_revisions", arguments: { id: noteId } })) as ToolResult;
    expect(JSON.stringify(revisions.structuredContent)).toContain(`"agent":"${CLIENT_NAME}"`);

    // The access token expires (its life shortened for the test); the SDK refreshes and rotates.
    await waitFor(async () => (await rawCall(first.access_token)).status === 401, { timeoutMs: 20_000, intervalMs: 250, message: "the access token to expire" });
    const expired = await rawCall(first.access_token);
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(await expired.json()).toEqual({ error: "Invalid session token: the access token has expired; refresh it" });
    const afterRefresh = (await client.callTool({ name: "get_note", arguments: { id: noteId } })) as ToolResult;
    expect(afterRefresh.isError, afterRefresh.content[0]?.text).toBeFalsy();
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // RFC 7009 revocation of the access token ends it at the next request.
    expect((await rawCall(second.access_token)).status).toBe(200);
    const revoked = await fetch(`${stack.app.url}/api/auth/oauth2/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: second.access_token, token_type_hint: "access_token", client_id: provider.client!.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect((await rawCall(second.access_token)).status).toBe(401);

    // The SDK refreshes again; then the person disconnects the client on the account page.
    expect(((await client.callTool({ name: "list_tags", arguments: {} })) as ToolResult).isError).toBeFalsy();
    const third = provider.saved!;
    expect((await rawCall(third.access_token)).status).toBe(200);
    await page.goto("/account");
    await page.getByRole("button", { name: `Disconnect ${CLIENT_NAME}` }).click();
    await expect.poll(() => page.getByText("No MCP client is connected").count()).toBe(1);
    expect((await rawCall(third.access_token)).status).toBe(401);
    // Its refresh token went with it: the client must ask the person again.
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: "list_tags", arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.saved).toBeUndefined();
    const askedAgain = provider.authorizationUrl as URL | undefined;
    expect(askedAgain?.searchParams.get("client_id")).toBe(provider.client!.client_id);

    // The identity service's tokens still work on /api/mcp, in either header.
    expect((await rawCall(stack.tokenFor(person.email))).status).toBe(200);
  });
});
