import { generateKey, hashKey, newId, PARTNER_KEY_PREFIX } from "./credentials";
import { IdentityError } from "./errors";
import { namedKey, presentedKeyStatus, revokeKeyRecord } from "./key-records";
import type { IdentityStore, TPartnerKeyRecord, TStateIndex } from "./store";
import { normalizeEmail } from "./users";

/** Partner keys: active from creation, revoked for good by `revokePartnerKey`. */

export type AddPartnerKeyOptions = { email: string; now?: Date };

export async function addPartnerKey(store: IdentityStore, options: AddPartnerKeyOptions) {
  const email = normalizeEmail(options.email);
  return store.mutate((draft) => {
    const partnerKey = generateKey(PARTNER_KEY_PREFIX);
    const record: TPartnerKeyRecord = {
      id: newId("pk_"),
      email,
      hash: hashKey(partnerKey),
      createdAt: (options.now ?? new Date()).toISOString(),
      revokedAt: null,
    };
    draft.partnerKeys.push(record);
    return { partnerKey, keyId: record.id, email };
  });
}

export type RevokePartnerKeyOptions = {
  /** The raw partner key or its id as shown by `partner list`. */
  key: string;
  now?: Date;
};

export async function revokePartnerKey(store: IdentityStore, options: RevokePartnerKeyOptions) {
  const named = namedKey(options.key);
  return store.mutate((draft) => {
    const record = draft.partnerKeys.find(named);
    if (!record) throw new IdentityError("NOT_FOUND", "No such partner key");
    return { keyId: record.id, email: record.email, ...revokeKeyRecord(record, options.now) };
  });
}

export async function listPartnerKeys(store: IdentityStore) {
  const { state } = await store.snapshot();
  return state.partnerKeys.map(({ id, email, createdAt, revokedAt }) => ({ id, email, createdAt, revokedAt }));
}

export type PartnerKeyCheck = { status: "active"; key: TPartnerKeyRecord } | { status: "unknown" } | { status: "revoked" };

/** Looks a presented partner key up by its hash. */
export function checkPartnerKey(index: TStateIndex, rawKey: string): PartnerKeyCheck {
  const hash = hashKey(rawKey);
  const key = index.partnerKeysByHash.get(hash);
  const status = presentedKeyStatus(key, hash);
  return status === "active" ? { status, key: key! } : { status };
}
