import { addressLimitKey } from "@/lib/auth/client-address";
import type { Db } from "@/lib/db/client";
import { authAccountLimitKey } from "@/lib/rate-limit/keys";
import { consumeRateLimit, pruneRateLimits, type RateLimitRule, type RateLimitState } from "@/lib/rate-limit/limiter";

/** Limits of one auth operation: per account (the email it names) and per client address. */
type AuthLimit = { account?: RateLimitRule; address: RateLimitRule };

const MINUTES = 60;
const HOUR = 60 * MINUTES;

/**
 * The account operations an attacker would repeat: guessing passwords,
 * signing up or mailing links to someone else's address. Each is limited per
 * account, whatever address the attempts come from, and per address, whatever
 * accounts they name. Every other auth endpoint has the `other` limit per address.
 */
const AUTH_LIMITS = {
  signIn: { account: { limit: 10, windowSeconds: 15 * MINUTES }, address: { limit: 20, windowSeconds: 15 * MINUTES } },
  signUp: { account: { limit: 5, windowSeconds: HOUR }, address: { limit: 10, windowSeconds: HOUR } },
  passwordReset: { account: { limit: 3, windowSeconds: HOUR }, address: { limit: 10, windowSeconds: HOUR } },
  verificationMail: { account: { limit: 3, windowSeconds: HOUR }, address: { limit: 10, windowSeconds: HOUR } },
  /** Setting a password with a reset link, or finishing a sign-up on the verification page. */
  linkUse: { address: { limit: 10, windowSeconds: 15 * MINUTES } },
  other: { address: { limit: 120, windowSeconds: MINUTES } },
} as const satisfies Record<string, AuthLimit>;

export type AuthOperation = keyof typeof AUTH_LIMITS;

/** The operation of an /api/auth/* path (the part after /api/auth), by the library's endpoint names. */
export function authOperation(path: string): AuthOperation {
  switch (path) {
    case "/sign-in/email":
      return "signIn";
    case "/sign-up/email":
      return "signUp";
    case "/request-password-reset":
      return "passwordReset";
    case "/send-verification-email":
      return "verificationMail";
    case "/reset-password":
      return "linkUse";
    default:
      return "other";
  }
}

/** The rule that ran out first, with its state, when a request is over a limit. */
export type AuthLimitExceeded = { scope: "account" | "address"; state: RateLimitState };

const PRUNE_EVERY = 100;
const KEEP_ENDED_WINDOWS_SECONDS = 2 * HOUR;

/**
 * Counts one auth request against its limits (per account when it names an
 * email, per client address always) in the database, so every instance
 * shares them. Returns the exceeded limit, or null when the request may go on.
 */
export async function limitAuthRequest(
  db: Db,
  request: { operation: AuthOperation; address: string | null; email?: string | null },
): Promise<AuthLimitExceeded | null> {
  const limit: AuthLimit = AUTH_LIMITS[request.operation];
  const checks: Promise<AuthLimitExceeded | null>[] = [
    consumeRateLimit(db, `auth:${request.operation}:address:${addressLimitKey(request.address)}`, limit.address).then((state) =>
      state.allowed ? null : { scope: "address", state },
    ),
  ];
  const email = request.email?.trim().toLowerCase();
  if (limit.account && email) {
    checks.push(
      consumeRateLimit(db, authAccountLimitKey(request.operation, email), limit.account).then((state) =>
        state.allowed ? null : { scope: "account", state },
      ),
    );
  }
  // Keys of addresses and accounts that stopped trying are dropped now and then.
  if (Math.random() < 1 / PRUNE_EVERY) await pruneRateLimits(db, KEEP_ENDED_WINDOWS_SECONDS);
  const exceeded = (await Promise.all(checks)).filter((result) => result !== null);
  // The longest wait is the one that matters to the caller.
  return exceeded.sort((a, b) => b.state.resetSeconds - a.state.resetSeconds)[0] ?? null;
}
