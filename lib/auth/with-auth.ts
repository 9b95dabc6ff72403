import "server-only";
import { authenticate, defaultVerify, SESSION_TOKEN_HEADER, type AuthContext, type AuthDeps, type FindUser } from "@/lib/auth/authenticate";
import { getDb, type Db } from "@/lib/db/client";
import { appOrigin, isAllowedMcpOrigin, isCrossOrigin } from "@/lib/auth/origin";
import { getEnv } from "@/lib/env";
import { findOAuthAccess, mcpChallenge, mcpResource } from "@/lib/auth/oauth";
import { noteRequestAccount } from "@/lib/server/request-log";
import { crossOriginError, NO_STORE, requestIdFor, toErrorResponse } from "@/lib/errors";
import { findUncountedUser, findUserLimitingRequests, limitApiRequests, type LimitedUser } from "@/lib/auth/api-rate-limit";

/** What Next.js passes a route handler as its second argument (params is a Promise in Next 16). */
export type RouteContext<P> = { params: Promise<P> };

export type AuthedHandler<P> = (args: { req: Request; params: P; user: AuthContext; db: Db }) => Promise<Response>;

/**
 * The user's request budget (lib/auth/api-rate-limit.ts). `findUser`: the account
 * step of authentication with the request counted, in one statement (null when
 * no verified account has the email). `forUser`: the count alone, for a person
 * already known (a browser session). Either gives the response's header fields
 * or throws a 429.
 */
type RequestLimits = {
  findUser: FindUser<LimitedUser>;
  forUser: (db: Db, user: AuthContext) => Promise<Record<string, string>>;
};

export type WithAuthDeps = AuthDeps & {
  /** Without it, requests are not counted. */
  limitRequests?: RequestLimits;
  /** The signed-in person of a browser request (its session cookie), for routes that accept one. */
  sessionUser?: (req: Request) => Promise<AuthContext | null>;
};

export type WithAuthOptions = {
  /**
   * Also the browser's session (cookie) when no x-session-token is sent: for
   * routes a page reaches directly, like an image in a note. A request so
   * authenticated that changes something must come from the app's own origin.
   */
  browserSession?: boolean;
  /** Also the token in `Authorization: Bearer`, as MCP clients send it (x-session-token first). */
  bearer?: boolean;
  /** A browser request from an origin other than the app's own or MCP_ALLOWED_ORIGINS is refused (403) before anything else. */
  checkOrigin?: boolean;
};

/** Who is asking, and the request budget's header fields for the response. */
type Identified = { user: AuthContext; limitHeaders: Record<string, string> };

/**
 * Wraps a route handler: token → verified email → local account (the request
 * counted against its budget in the same statement), then the handler, with
 * every thrown error mapped once. Only auth failures are 401: a
 * missing note stays 404 and a database outage 503. The steps around it are
 * small functions below: the browser's session, the cache default.
 */
export function createWithAuth(deps: WithAuthDeps) {
  const findUser = deps.limitRequests?.findUser ?? findUncountedUser;

  /** The token's account (authenticate), counted in the same statement. */
  async function byToken(req: Request, options: WithAuthOptions): Promise<Identified> {
    const { context, account } = await authenticate(req, deps, findUser, { bearer: options.bearer });
    return { user: context, limitHeaders: account.rateLimitHeaders };
  }

  /**
   * The signed-in person of a browser request without a token, on routes that
   * accept one (null otherwise); a change so made must come from the app's own origin.
   */
  async function byBrowserSession(req: Request, options: WithAuthOptions): Promise<Identified | null> {
    if (!options.browserSession || req.headers.has(SESSION_TOKEN_HEADER)) return null;
    const person = await deps.sessionUser?.(req);
    if (!person) return null;
    if (req.method !== "GET" && req.method !== "HEAD" && isCrossOrigin(req.headers, getEnv())) throw crossOriginError();
    return { user: person, limitHeaders: (await deps.limitRequests?.forUser(await deps.getDb(), person)) ?? {} };
  }

  return function withAuth<P = Record<string, never>>(handler: AuthedHandler<P>, options: WithAuthOptions = {}) {
    return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
      let limitHeaders: Record<string, string> = {};
      try {
        if (options.checkOrigin && !isAllowedMcpOrigin(req.headers, getEnv())) throw crossOriginError();
        const identified = (await byBrowserSession(req, options)) ?? (await byToken(req, options));
        noteRequestAccount(identified.user.userId);
        limitHeaders = identified.limitHeaders;
        const [params, db] = await Promise.all([ctx.params, deps.getDb()]);
        const response = await handler({ req, params, user: identified.user, db });
        return withHeaders(response, { ...cacheDefault(response), ...limitHeaders, "X-Request-Id": requestIdFor(req) });
      } catch (err) {
        const response = withHeaders(toErrorResponse(err, req), limitHeaders);
        // MCP clients start (or renew) their OAuth authorization from this challenge.
        if (options.bearer && response.status === 401) response.headers.set("WWW-Authenticate", mcpChallenge(deps.getAppUrl(), hasCredentials(req)));
        return response;
      }
    };
  };
}

/** No caching, unless the route chose otherwise (an attachment's bytes, private to its owner). */
function cacheDefault(response: Response): Record<string, string> {
  return response.headers.has("cache-control") ? {} : NO_STORE;
}

// Settings are read on the first request, not at import (the build has none), and then kept.
let verifyWithSettings: AuthDeps["verify"] | undefined;

export const withAuth = createWithAuth({
  verify: (partnerKey, token) => {
    if (!verifyWithSettings) {
      const env = getEnv();
      verifyWithSettings = defaultVerify(env.IDENTITY_API_URL, env.IDENTITY_TIMEOUT_MS);
    }
    return verifyWithSettings(partnerKey, token);
  },
  getDb,
  getPartnerKey: () => getEnv().IDENTITY_PARTNER_KEY,
  getAppUrl: () => appOrigin(),
  oauthAccess: (db, token) => findOAuthAccess(db, token, mcpResource(appOrigin())),
  limitRequests: {
    findUser: (db, email) => findUserLimitingRequests(db, email),
    forUser: (db, user) => limitApiRequests(db, user),
  },
  async sessionUser(req) {
    // Loaded only by the routes that accept a browser session.
    const { getAuth } = await import("@/lib/auth/auth");
    const session = await (await getAuth()).api.getSession({ headers: req.headers });
    return session?.user.emailVerified ? { userId: session.user.id, email: session.user.email } : null;
  },
});

/** Whether the request sent a token at all (a refused one, as opposed to none). */
function hasCredentials(req: Request): boolean {
  return req.headers.has(SESSION_TOKEN_HEADER) || req.headers.has("authorization");
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
