import { z } from "zod";
import { generateKey, hashKey, newId, USER_KEY_PREFIX } from "./credentials";
import { IdentityError } from "./errors";
import { namedKey, presentedKeyStatus, revokeKeyRecord } from "./key-records";
import type { IdentityStore, TApiKeyRecord, TStateIndex, TUserRecord } from "./store";

/** Users of the identity service and their personal API keys. */

export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  if (!z.email().safeParse(trimmed).success) throw new IdentityError("INVALID_INPUT", `Not a valid email address: ${trimmed}`);
  return trimmed;
}

/** Emails are matched case-insensitively but returned as first registered. */
function sameEmail(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export type AddUserKeyOptions = { email: string; now?: Date };

/** Creates the user if new, and a new personal API key in either case. */
export async function addUserKey(store: IdentityStore, options: AddUserKeyOptions) {
  const email = normalizeEmail(options.email);
  return store.mutate((draft) => {
    const createdAt = (options.now ?? new Date()).toISOString();
    let user = draft.users.find((candidate) => sameEmail(candidate.email, email));
    const createdUser = !user;
    if (!user) {
      user = { id: newId("usr_"), email, createdAt, apiKeys: [] };
      draft.users.push(user);
    }
    const apiKey = generateKey(USER_KEY_PREFIX);
    const key: TApiKeyRecord = { id: newId("key_"), hash: hashKey(apiKey), createdAt, revokedAt: null };
    user.apiKeys.push(key);
    return { apiKey, keyId: key.id, userId: user.id, email: user.email, createdUser };
  });
}

export type RevokeUserKeyOptions = {
  /** The raw API key or its id as shown by `user list`. */
  key: string;
  now?: Date;
};

export async function revokeUserKey(store: IdentityStore, options: RevokeUserKeyOptions) {
  const named = namedKey(options.key);
  return store.mutate((draft) => {
    for (const user of draft.users) {
      const key = user.apiKeys.find(named);
      if (key) return { email: user.email, keyId: key.id, ...revokeKeyRecord(key, options.now) };
    }
    throw new IdentityError("NOT_FOUND", "No such API key");
  });
}

export async function listUsers(store: IdentityStore) {
  const { state } = await store.snapshot();
  return state.users.map((user) => ({
    id: user.id,
    email: user.email,
    createdAt: user.createdAt,
    keys: user.apiKeys.map(({ id, createdAt, revokedAt }) => ({ id, createdAt, revokedAt })),
  }));
}

/** Deletes the user and all their keys; their session tokens stop verifying at once. */
export async function removeUser(store: IdentityStore, options: { email: string }) {
  return store.mutate((draft) => {
    const index = draft.users.findIndex((user) => sameEmail(user.email, options.email.trim()));
    if (index === -1) throw new IdentityError("NOT_FOUND", `No user with email ${options.email.trim()}`);
    const [removed] = draft.users.splice(index, 1);
    return { id: removed!.id, email: removed!.email };
  });
}

export type UserKeyCheck =
  | { status: "active"; user: TUserRecord; key: TApiKeyRecord }
  | { status: "unknown" }
  | { status: "revoked" };

/** Looks a presented personal API key up by its hash. */
export function checkUserKey(index: TStateIndex, rawKey: string): UserKeyCheck {
  const hash = hashKey(rawKey);
  const found = index.userKeysByHash.get(hash);
  const status = presentedKeyStatus(found?.key, hash);
  return status === "active" ? { status, ...found! } : { status };
}
