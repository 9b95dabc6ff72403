import "server-only";
import { authenticate, defaultVerify, type AuthContext, type AuthDeps } from "@/lib/auth/authenticate";
import { getDb, type Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { NO_STORE, toErrorResponse } from "@/lib/errors";

export type { AuthContext } from "@/lib/auth/authenticate";

/** What Next.js passes a route handler as its second argument (params is a Promise in Next 16). */
export type RouteContext<P> = { params: Promise<P> };

export type AuthedHandler<P> = (args: { req: Request; params: P; user: AuthContext; db: Db }) => Promise<Response>;

/**
 * Wraps a route handler: token → verified email → local account, then the
 * handler, with every thrown error mapped once. Only auth failures are 401: a
 * missing note stays 404 and a database outage 503.
 */
export function createWithAuth(deps: AuthDeps) {
  return function withAuth<P = Record<string, never>>(handler: AuthedHandler<P>) {
    return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
      try {
        const user = await authenticate(req, deps);
        const [params, db] = await Promise.all([ctx.params, deps.getDb()]);
        const response = await handler({ req, params, user, db });
        for (const [name, value] of Object.entries(NO_STORE)) response.headers.set(name, value);
        return response;
      } catch (err) {
        return toErrorResponse(err);
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
  getAppUrl: () => getEnv().APP_URL,
});
