import "server-only";
import { authenticate, defaultVerify, type AuthContext, type AuthDeps } from "@/lib/auth/authenticate";
import { getDb, type Db } from "@/lib/db/client";
import { appOrigin } from "@/lib/auth/origin";
import { getEnv } from "@/lib/env";
import { NO_STORE, toErrorResponse } from "@/lib/errors";
import { limitApiRequests } from "@/lib/rate-limit/api";

/** What Next.js passes a route handler as its second argument (params is a Promise in Next 16). */
export type RouteContext<P> = { params: Promise<P> };

export type AuthedHandler<P> = (args: { req: Request; params: P; user: AuthContext; db: Db }) => Promise<Response>;

export type WithAuthDeps = AuthDeps & {
  /** The user's request budget: the response headers to send, or a thrown 429 (lib/rate-limit/api.ts). */
  limitRequests?: (db: Db, user: AuthContext) => Promise<Record<string, string>>;
};

/**
 * Wraps a route handler: token → verified email → local account, then the
 * handler, with every thrown error mapped once. Only auth failures are 401: a
 * missing note stays 404 and a database outage 503.
 */
export function createWithAuth(deps: WithAuthDeps) {
  return function withAuth<P = Record<string, never>>(handler: AuthedHandler<P>) {
    return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
      let limitHeaders: Record<string, string> = {};
      try {
        const user = await authenticate(req, deps);
        const [params, db] = await Promise.all([ctx.params, deps.getDb()]);
        limitHeaders = (await deps.limitRequests?.(db, user)) ?? {};
        const response = await handler({ req, params, user, db });
        return withHeaders(response, { ...NO_STORE, ...limitHeaders });
      } catch (err) {
        return withHeaders(toErrorResponse(err, req), limitHeaders);
      }
    };
  };
}

export const withAuth = createWithAuth({
  verify: (partnerKey, token) => {
    const env = getEnv();
    return defaultVerify(env.IDENTITY_API_URL, env.IDENTITY_TIMEOUT_MS)(partnerKey, token);
  },
  getDb,
  getPartnerKey: () => getEnv().IDENTITY_PARTNER_KEY,
  getAppUrl: () => appOrigin(),
  limitRequests: (db, user) => limitApiRequests(db, user),
});

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
