import { mintSessionToken, readSessionToken } from "./credentials";
import type { TStateIndex } from "./store";
import { checkUserKey } from "./users";

/** Session tokens minted from a personal API key and exchanged for an email on verify. */

export type IssueSessionTokenOptions = {
  index: TStateIndex;
  secret: Buffer;
  rawUserKey: string;
  ttlSeconds: number;
  now?: number;
};

export function issueSessionToken(options: IssueSessionTokenOptions) {
  const check = checkUserKey(options.index, options.rawUserKey);
  if (check.status !== "active") return check;
  const minted = mintSessionToken({
    secret: options.secret,
    userId: check.user.id,
    keyId: check.key.id,
    ttlSeconds: options.ttlSeconds,
    now: options.now,
  });
  return { status: "issued" as const, ...minted };
}

/**
 * The email a token stands for, or undefined when the token is malformed,
 * forged, expired, or its user or API key is gone or revoked.
 */
export function resolveSessionToken(index: TStateIndex, secret: Buffer, token: string, now = Date.now()): string | undefined {
  const claims = readSessionToken(secret, token, now);
  if (!claims) return undefined;
  const user = index.usersById.get(claims.userId);
  const key = user?.apiKeys.find((candidate) => candidate.id === claims.keyId);
  if (!user || !key || key.revokedAt !== null) return undefined;
  return user.email;
}
