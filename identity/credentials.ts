import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { createFileExclusive } from "./files";

/**
 * Secrets of the identity service: personal API keys and partner keys
 * (random, stored only as SHA-256 hashes) and session tokens (stateless,
 * HMAC-signed with the server secret, checked against the store on verify).
 */

/** Personal API key of a user, saved by the agent tool. */
export const USER_KEY_PREFIX = "idk_";
/** Partner key, sent by partners on verify. */
export const PARTNER_KEY_PREFIX = "ptk_";
const TOKEN_VERSION = "ist1";

const KEY_BYTES = 32; // 256 bits
const SECRET_BYTES = 32;
const SERVER_SECRET_FILE = "server-secret";

export function generateKey(prefix: string): string {
  return prefix + randomBytes(KEY_BYTES).toString("base64url");
}

export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString("base64url");
}

/**
 * A fast unsalted hash is enough: keys carry 256 random bits, so there is
 * nothing to brute-force, and the hash doubles as the lookup index.
 */
export function hashKey(rawKey: string): string {
  return createHash("sha256").update(rawKey, "utf8").digest("hex");
}

/** Constant-time equality of two strings (false on a length mismatch). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Reads the 32-byte server secret of `dataDir`, creating it (mode 0600) on first use. */
export async function loadOrCreateServerSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SERVER_SECRET_FILE);
  // Concurrent first starts: exactly one creation wins and everyone reads it.
  await createFileExclusive(file, `${randomBytes(SECRET_BYTES).toString("hex")}\n`, 0o600);
  await fs.chmod(file, 0o600).catch(() => undefined);
  const secret = Buffer.from((await fs.readFile(file, "utf8")).trim(), "hex");
  if (secret.length !== SECRET_BYTES) throw new Error(`Server secret ${file} is malformed`);
  return secret;
}

export type TSessionClaims = {
  userId: string;
  keyId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
};

function sign(secret: Buffer, signedPart: string): string {
  return createHmac("sha256", secret).update(signedPart, "utf8").digest("base64url");
}

export type MintSessionTokenOptions = {
  secret: Buffer;
  userId: string;
  keyId: string;
  ttlSeconds: number;
  now?: number;
};

export function mintSessionToken(options: MintSessionTokenOptions): { sessionToken: string; expiresAt: number } {
  const { secret, userId, keyId, ttlSeconds, now = Date.now() } = options;
  const expiresAt = now + Math.round(ttlSeconds * 1000);
  const payload = Buffer.from(
    JSON.stringify({ u: userId, k: keyId, e: expiresAt, n: randomBytes(16).toString("base64url") }),
    "utf8",
  ).toString("base64url");
  const signedPart = `${TOKEN_VERSION}.${payload}`;
  return { sessionToken: `${signedPart}.${sign(secret, signedPart)}`, expiresAt };
}

/**
 * Claims of a well-signed, unexpired token, else undefined. Whether the user
 * and key still exist and are active is the caller's check.
 */
export function readSessionToken(secret: Buffer, token: string, now = Date.now()): TSessionClaims | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== TOKEN_VERSION) return undefined;
  const [version, payload, signature] = parts as [string, string, string];
  // Compare encoded strings, not decoded bytes: base64 decoding is lenient, so
  // comparing bytes would accept altered spellings of the same signature.
  if (!safeEqual(signature, sign(secret, `${version}.${payload}`))) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null) return undefined;
  const { u, k, e } = claims as Record<string, unknown>;
  if (typeof u !== "string" || typeof k !== "string" || typeof e !== "number") return undefined;
  if (!(now < e)) return undefined;
  return { userId: u, keyId: k, expiresAt: e };
}
