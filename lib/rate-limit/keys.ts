import { createHash } from "node:crypto";

// The keys of the rate_limits rows that belong to one account, in one place:
// the limiters write them and erasing the account deletes them.

/** What every account's REST and MCP window key starts with, before the account's id. */
export const API_LIMIT_KEY_PREFIX = "api:user:";

/** One account's REST and MCP request window. */
export function apiLimitKey(userId: string): string {
  return `${API_LIMIT_KEY_PREFIX}${userId}`;
}

// The counters table needs no email addresses in it.
function accountKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
}

/** One account's window of one auth operation (sign-in, password reset, …), keyed on the email it names. */
export function authAccountLimitKey(operation: string, email: string): string {
  return `auth:${operation}:account:${accountKey(email)}`;
}

/** A LIKE pattern matching every auth operation's window of one account. */
export function authAccountLimitKeyPattern(email: string): string {
  return authAccountLimitKey("%", email);
}
