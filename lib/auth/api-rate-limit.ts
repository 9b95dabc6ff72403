import type { AuthContext } from "@/lib/auth/authenticate";
import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { getEnv, type Env } from "@/lib/env";
import { rateLimitedError } from "@/lib/errors";
import { API_LIMIT_KEY_PREFIX, apiLimitKey } from "@/lib/rate-limit/keys";
import { consumeRateLimit, countRequestsCtes, rateLimitState, type RateLimitRule, type RateLimitState, type WindowRow } from "@/lib/rate-limit/limiter";
import { findVerifiedUserByEmail, type UserSummary } from "@/lib/users/queries";

/** The policy's name in the RateLimit header fields. */
const POLICY = "api";

type ApiLimitSettings = Pick<Env, "API_RATE_LIMIT" | "API_RATE_LIMIT_WINDOW">;

/** API_RATE_LIMIT per API_RATE_LIMIT_WINDOW seconds, or null when the limit is off (0). */
function apiRule(env: ApiLimitSettings): RateLimitRule | null {
  return env.API_RATE_LIMIT === 0 ? null : { limit: env.API_RATE_LIMIT, windowSeconds: env.API_RATE_LIMIT_WINDOW };
}

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

/** The header fields for a counted request, or, past the limit, RATE_LIMITED (429 with Retry-After) carrying them. */
function headersOrRateLimited(state: RateLimitState, rule: RateLimitRule): Record<string, string> {
  const headers = rateLimitHeaders(state, rule.windowSeconds);
  if (!state.allowed) throw rateLimitedError(state.resetSeconds, headers);
  return headers;
}

/**
 * Counts one REST or MCP request against the user's window (API_RATE_LIMIT
 * per API_RATE_LIMIT_WINDOW seconds, shared by every instance through the
 * database). Returns the header fields for the response; past the limit it
 * throws RATE_LIMITED, a 429 with Retry-After, so an agent in a loop slows down.
 */
export async function limitApiRequests(db: Db, user: AuthContext, env: ApiLimitSettings = getEnv()): Promise<Record<string, string>> {
  const rule = apiRule(env);
  if (!rule) return {};
  return headersOrRateLimited(await consumeRateLimit(db, apiLimitKey(user.userId), rule), rule);
}

/** The account a verified email names, with the RateLimit header fields to answer its request with. */
export type LimitedUser = UserSummary & { rateLimitHeaders: Record<string, string> };

/** The account a verified email names, with no request counted (the limit is off). */
export async function findUncountedUser(db: Db, email: string): Promise<LimitedUser | null> {
  const user = await findVerifiedUserByEmail(db, email);
  return user && { ...user, rateLimitHeaders: {} };
}

/**
 * findVerifiedUserByEmail and then limitApiRequests, in one statement: the
 * one round trip to the database that authenticating a token takes. Null, and
 * nothing counted, when no verified account has the email; past the limit,
 * RATE_LIMITED as limitApiRequests throws it.
 */
export async function findUserLimitingRequests(db: Db, email: string, env: ApiLimitSettings = getEnv()): Promise<LimitedUser | null> {
  const rule = apiRule(env);
  if (!rule) return findUncountedUser(db, email);
  // The account by findVerifiedUserByEmail's rule: the email compared
  // case-insensitively (citext), and only once it is verified.
  const rows = await queryRows<UserSummary & WindowRow>(db, Prisma.sql`
    WITH account AS (SELECT id::text AS id, email::text AS email FROM users WHERE email = ${email}::citext AND email_verified),
    ${countRequestsCtes(Prisma.sql`SELECT ${API_LIMIT_KEY_PREFIX}::text || id FROM account`, rule)}
    SELECT account.id, account.email, counted.count, counted.window_start, counted.now FROM account, counted`,
    { prepare: true },
  );
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, email: row.email, rateLimitHeaders: headersOrRateLimited(rateLimitState(row, rule), rule) };
}
