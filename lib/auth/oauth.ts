import { createHash } from "node:crypto";
import { MCP_PATH } from "@/lib/http/paths";
import type { Db } from "@/lib/db/client";

// /api/mcp as an OAuth 2.1 protected resource (the MCP authorization spec):
// the auth library's OAuth provider issues opaque access tokens bound to it;
// this module names the resource and scopes and checks a token on each request.

/** What a token lets a client do: read and write the person's notes. */
export const NOTES_SCOPE = "notes";

/** The scopes a client asks for: the notes, and a refresh token to stay connected. */
export const MCP_SCOPES = [NOTES_SCOPE, "offline_access"] as const;

/** The page where a person allows or denies a client (the provider sends them there). */
export const CONSENT_PAGE = "/oauth/consent";

/** The resource identifier of /api/mcp on this server. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

/** Where a client finds the protected resource metadata of /api/mcp (RFC 9728, path-suffixed form). */
function resourceMetadataUrl(origin: string): string {
  return `${origin}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

/**
 * The challenge of a 401 from /api/mcp (RFC 6750 with RFC 9728's
 * resource_metadata): an MCP client starts its authorization from it.
 * `invalid` when a token was sent and refused, so the client refreshes.
 */
export function mcpChallenge(origin: string, invalid: boolean): string {
  const params = [`resource_metadata="${resourceMetadataUrl(origin)}"`, `scope="${MCP_SCOPES.join(" ")}"`];
  if (invalid) params.push('error="invalid_token"');
  return `Bearer ${params.join(", ")}`;
}

/**
 * How access and refresh tokens are stored (the provider's `storeTokens`): a
 * SHA-256 digest, so a database read gives no usable token and
 * findOAuthAccess can look one up by the token a client sends.
 */
export function hashOAuthToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** Who an OAuth access token acts for, and the client that holds it. */
export type OAuthAccess = { userId: string; email: string; clientId: string; clientName: string | null };

/** Why a token the provider issued no longer works. */
export type OAuthRefusal = { refused: string };

/**
 * The access a token gives on `resource`, read from the database on every
 * request: null when the provider never issued it (it may be an identity
 * session token), a refusal when it expired, was revoked, is bound to another
 * resource or lacks the notes scope, or its client was disabled or deleted
 * (its rows go with it), or its account was deleted or is unverified.
 */
export async function findOAuthAccess(db: Db, token: string, resource: string, now = new Date()): Promise<OAuthAccess | OAuthRefusal | null> {
  const row = await db.oauthAccessToken.findUnique({
    where: { token: hashOAuthToken(token) },
    select: {
      expiresAt: true,
      revoked: true,
      resources: true,
      scopes: true,
      client: { select: { clientId: true, name: true, disabled: true } },
      user: { select: { id: true, email: true, emailVerified: true } },
    },
  });
  if (!row) return null;
  if (row.revoked) return { refused: "the access token was revoked" };
  if (!row.expiresAt || row.expiresAt <= now) return { refused: "the access token has expired; refresh it" };
  if (row.client.disabled) return { refused: "the client was disconnected" };
  if (!row.resources.includes(resource)) return { refused: `the access token is not for ${resource}` };
  if (!row.scopes.includes(NOTES_SCOPE)) return { refused: `the access token lacks the ${NOTES_SCOPE} scope` };
  if (!row.user?.emailVerified) return { refused: "the account no longer exists" };
  return { userId: row.user.id, email: row.user.email, clientId: row.client.clientId, clientName: row.client.name };
}

/**
 * Ends every OAuth grant of an account: its refresh and access tokens, so each
 * connected client must be allowed again. A password change does this, as it
 * signs every browser out.
 */
export async function endOAuthGrants(db: Db, userId: string): Promise<void> {
  await db.$transaction([db.oauthAccessToken.deleteMany({ where: { userId } }), db.oauthRefreshToken.deleteMany({ where: { userId } })]);
}

/** A client a person has allowed, as the account page lists it. */
export type ConnectedClient = { clientId: string; name: string; allowedAt: Date };

/** The clients an account has allowed (their consents), newest first. */
export async function listConnectedClients(db: Db, userId: string): Promise<ConnectedClient[]> {
  const consents = await db.oauthConsent.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true, client: { select: { clientId: true, name: true } } },
  });
  return consents.map((consent) => ({ clientId: consent.client.clientId, name: consent.client.name || consent.client.clientId, allowedAt: consent.createdAt ?? new Date(0) }));
}

/**
 * Disconnects a client from an account at once: its tokens and the consent go,
 * so its next request is refused and it must ask the person again. False when
 * the account had not allowed it.
 */
export async function disconnectClient(db: Db, userId: string, clientId: string): Promise<boolean> {
  const [, , consents] = await db.$transaction([
    db.oauthAccessToken.deleteMany({ where: { userId, clientId } }),
    db.oauthRefreshToken.deleteMany({ where: { userId, clientId } }),
    db.oauthConsent.deleteMany({ where: { userId, clientId } }),
  ]);
  return consents.count > 0;
}

/** The name a client registered under (its id when it gave none), or null for no such client. */
export async function findClientName(db: Db, clientId: string): Promise<string | null> {
  const client = await db.oauthClient.findUnique({ where: { clientId }, select: { name: true, disabled: true } });
  if (!client || client.disabled) return null;
  return client.name || clientId;
}
