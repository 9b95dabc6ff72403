import { hashKey, safeEqual } from "./credentials";

/** What personal API keys and partner keys have in common: stored as a hash, revocable for good. */
type KeyRecord = { id: string; hash: string; revokedAt: string | null };

/** A finder for the key an operator names: the raw key (by its hash) or its id as the list commands show it. */
export function namedKey(key: string): (record: KeyRecord) => boolean {
  const hash = hashKey(key);
  return (record) => record.hash === hash || record.id === key;
}

/** Revokes the key; revoking it again changes nothing and says so. */
export function revokeKeyRecord(record: KeyRecord, now = new Date()): { alreadyRevoked: boolean } {
  const alreadyRevoked = record.revokedAt !== null;
  if (!alreadyRevoked) record.revokedAt = now.toISOString();
  return { alreadyRevoked };
}

/** A presented key, looked up by its hash: unknown, revoked, or active. */
export function presentedKeyStatus(stored: KeyRecord | undefined, hash: string): "unknown" | "revoked" | "active" {
  if (!stored || !safeEqual(stored.hash, hash)) return "unknown";
  return stored.revokedAt === null ? "active" : "revoked";
}
