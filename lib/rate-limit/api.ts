import type { AuthContext } from "@/lib/auth/authenticate";
import type { DbClient } from "@/lib/db/client";
import { getEnv, type Env } from "@/lib/env";
import { rateLimitedError } from "@/lib/errors";
import { apiLimitKey } from "@/lib/rate-limit/keys";
import { consumeRateLimit, type RateLimitState } from "@/lib/rate-limit/limiter";

/** The policy's name in the RateLimit header fields. */
const POLICY = "api";

/**
 * The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers:
 * the quota and window, then what is left of it and when the window ends.
 */
function rateLimitHeaders(state: RateLimitState, windowSeconds: number): Record<string, string> {
  return {
    "RateLimit-Policy": `"${POLICY}";q=${state.limit};w=${windowSeconds}`,
    RateLimit: `"${POLICY}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/**
 * Counts one REST or MCP request against the user's window (API_RATE_LIMIT
 * per API_RATE_LIMIT_WINDOW seconds, shared by every instance through the
 * database). Returns the header fields for the response; past the limit it
 * throws RATE_LIMITED, a 429 with Retry-After, so an agent in a loop slows down.
 */
export async function limitApiRequests(db: DbClient, user: AuthContext, env: Env = getEnv()): Promise<Record<string, string>> {
  if (env.API_RATE_LIMIT === 0) return {};
  const rule = { limit: env.API_RATE_LIMIT, windowSeconds: env.API_RATE_LIMIT_WINDOW };
  const state = await consumeRateLimit(db, apiLimitKey(user.userId), rule);
  const headers = rateLimitHeaders(state, rule.windowSeconds);
  if (!state.allowed) throw rateLimitedError(state.resetSeconds, headers);
  return headers;
}
