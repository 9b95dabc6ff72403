import type { Db } from "@/lib/db/client";
import { AppError, serverConfigError } from "@/lib/errors";
import { verifyDetailed, type VerifyOutcome } from "@/lib/identity/client";
import { log } from "@/lib/log";
import type { OAuthAccess, OAuthRefusal } from "@/lib/auth/oauth";
import type { UserSummary } from "@/lib/users/queries";

/** Who a request acts for. Every query is scoped to `userId`. */
export type AuthContext = {
  userId: string;
  email: string;
  /** The agent's name, when the identity service gave one: recorded in the note history. */
  agent?: string;
};

export type AuthDeps = {
  /** The identity call, injectable for tests. */
  verify: (partnerKey: string, sessionToken: string) => Promise<VerifyOutcome>;
  getDb: () => Promise<Db>;
  /** Read per request so a missing key is reported, not crashed on at start-up. */
  getPartnerKey: () => string | undefined;
  /** The app's public origin (APP_URL) for the sign-up hint; never taken from the request. */
  getAppUrl: () => string;
  /** Pause before the single retry of a partner-side fault. */
  retryDelayMs?: number;
  /**
   * The OAuth access a bearer token gives (findOAuthAccess), null for a token
   * the OAuth provider never issued. Without it, only identity tokens count.
   */
  oauthAccess?: (db: Db, token: string) => Promise<OAuthAccess | OAuthRefusal | null>;
};

export const SESSION_TOKEN_HEADER = "x-session-token";

/**
 * The account step: the verified account a verified email names, or null
 * (findVerifiedUserByEmail's rule). withAuth's also counts the request against
 * the account's budget in the same statement.
 */
export type FindUser<U extends UserSummary> = (db: Db, email: string) => Promise<U | null>;

/**
 * The contract's authentication steps, in order: token present, partner key
 * configured, token verified, local account found (by `findUser`). Throws
 * AppError with the contract's code on each failure. `context` is who the
 * request acts for, `account` what findUser found.
 */
export async function authenticate<U extends UserSummary>(
  req: Request,
  deps: AuthDeps,
  findUser: FindUser<U>,
  options: { bearer?: boolean } = {},
): Promise<{ context: AuthContext; account: U }> {
  const sessionToken = req.headers.get(SESSION_TOKEN_HEADER)?.trim();
  const token = sessionToken || (options.bearer ? bearerToken(req) : undefined);
  if (!token) throw new AppError("MISSING_TOKEN");

  // A bearer token may be an OAuth access token of /api/mcp: its account is the one it was issued for.
  if (!sessionToken && deps.oauthAccess) {
    const oauth = await byOAuthToken(deps, findUser, token);
    if (oauth) return oauth;
  }

  const partnerKey = deps.getPartnerKey();
  if (!partnerKey) {
    log.error("auth.partner_key_missing", { hint: "set IDENTITY_PARTNER_KEY" });
    throw serverConfigError();
  }

  const outcome = await verifyWithRetry(deps, partnerKey, token);
  if (!outcome.ok) throw new AppError("INVALID_TOKEN", { args: [outcome.error] });

  const db = await deps.getDb();
  const account = await findUser(db, outcome.email);
  if (!account) {
    throw new AppError("USER_NOT_FOUND", { args: [deps.getAppUrl()], fields: { email: outcome.email } });
  }
  return { context: { userId: account.id, email: outcome.email, ...(outcome.agent ? { agent: outcome.agent } : {}) }, account };
}

/**
 * The account of an OAuth access token, by the user id it was issued for,
 * counted like any request; the client's name is the agent the history
 * records. Null when the provider never issued the token.
 */
async function byOAuthToken<U extends UserSummary>(deps: AuthDeps, findUser: FindUser<U>, token: string): Promise<{ context: AuthContext; account: U } | null> {
  const db = await deps.getDb();
  const access = await deps.oauthAccess!(db, token);
  if (!access) return null;
  if ("refused" in access) throw new AppError("INVALID_TOKEN", { args: [access.refused] });
  const account = await findUser(db, access.email);
  if (!account || account.id !== access.userId) {
    throw new AppError("USER_NOT_FOUND", { args: [deps.getAppUrl()], fields: { email: access.email } });
  }
  return { context: { userId: account.id, email: access.email, ...(access.clientName ? { agent: access.clientName } : {}) }, account };
}

/** The token of `Authorization: Bearer <token>` (RFC 6750), as MCP clients send theirs. */
function bearerToken(req: Request): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.get("authorization") ?? "");
  return match?.[1];
}

/** Faults on the partner's side of the verify call, as opposed to a bad token. */
function partnerFault(outcome: VerifyOutcome): "unreachable" | "identity_error" | "partner_key_revoked" | "partner_key_rejected" | null {
  if (outcome.ok) return null;
  if (outcome.status === null) return "unreachable";
  if (outcome.status >= 500) return "identity_error";
  if (outcome.status === 403) return "partner_key_revoked";
  // 401 about the partner key itself (not the token) is also ours to fix.
  if (outcome.status === 401 && /partner key/i.test(outcome.error)) return "partner_key_rejected";
  return null;
}

async function verifyWithRetry(deps: AuthDeps, partnerKey: string, token: string): Promise<VerifyOutcome> {
  let outcome = await deps.verify(partnerKey, token);
  let fault = partnerFault(outcome);
  // Outages and 5xx are usually brief: one retry after a short pause.
  if (fault === "unreachable" || fault === "identity_error") {
    await new Promise((resolve) => setTimeout(resolve, deps.retryDelayMs ?? 200));
    outcome = await deps.verify(partnerKey, token);
    fault = partnerFault(outcome);
  }
  if (fault && !outcome.ok) {
    // The caller still gets the contract's 401; operators need to see that the
    // cause is on our side (rotate the key, check the identity service).
    log.error("auth.identity_fault", { cause: fault, status: outcome.status, detail: outcome.error });
  }
  return outcome;
}

export function defaultVerify(apiUrl: string, timeoutMs: number): AuthDeps["verify"] {
  return (partnerKey, sessionToken) => verifyDetailed(partnerKey, sessionToken, apiUrl, { timeoutMs });
}
