import { signJWT, verifyPassword } from "better-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeSignUp, readSignUpLink } from "@/lib/auth/complete-sign-up";
import type { DbHandle } from "@/lib/db/client";
import { createUser, deletePendingSignUp } from "@/lib/users/mutations";
import { createMemoryDb } from "@/tests/helpers/test-db";

const secret = "a-test-secret-that-is-long-enough-0123456789";
let handle: DbHandle;

beforeAll(async () => {
  handle = await createMemoryDb();
});
afterAll(() => handle.close());

// What the auth library mails: a signed token naming the email and the pending user.
const linkToken = (email: string, userId: string, expiresIn = 3600) => signJWT({ email, userId }, secret, expiresIn);

/** A sign-up as the sign-up endpoint leaves it: unverified, with whatever password the form sent, maybe a session and a reset link. */
async function pendingSignUp(email: string, password: string) {
  const db = handle.db;
  const user = await createUser(db, { email, password, emailVerified: false });
  await db.session.create({ data: { userId: user.id, token: `session-${user.id}`, expiresAt: new Date(Date.now() + 3600_000) } });
  await db.verification.create({ data: { identifier: `reset-password:token-${user.id}`, value: user.id, expiresAt: new Date(Date.now() + 3600_000) } });
  return user;
}

describe("completeSignUp", () => {
  it("verifies the email, makes the password chosen on the link's page the only one, and revokes the rest", async () => {
    const db = handle.db;
    const user = await pendingSignUp("victim@example.com", "attacker-password");
    const token = await linkToken("victim@example.com", user.id);
    expect(await readSignUpLink(db, { token, secret })).toEqual({ kind: "pending", userId: user.id, email: "victim@example.com" });

    expect(await completeSignUp(db, { token, secret, password: "owner-password" })).toEqual({ ok: true, email: "victim@example.com" });

    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ emailVerified: true });
    const accounts = await db.account.findMany({ where: { userId: user.id } });
    expect(accounts).toHaveLength(1);
    expect(await verifyPassword({ hash: accounts[0]!.password!, password: "owner-password" })).toBe(true);
    expect(await verifyPassword({ hash: accounts[0]!.password!, password: "attacker-password" })).toBe(false);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.verification.count({ where: { value: user.id } })).toBe(0);

    // The link works once.
    expect(await completeSignUp(db, { token, secret, password: "another-password" })).toEqual({ ok: false, state: "verified" });
    const [account] = await db.account.findMany({ where: { userId: user.id } });
    expect(await verifyPassword({ hash: account!.password!, password: "owner-password" })).toBe(true);
  });

  it("refuses forged, expired and replaced links", async () => {
    const db = handle.db;
    const first = await pendingSignUp("twice@example.com", "first-password");
    const firstLink = await linkToken("twice@example.com", first.id);
    // A newer sign-up for the same email replaces the pending one; its link is bound to the old user.
    await deletePendingSignUp(db, "TWICE@example.com");
    const second = await pendingSignUp("twice@example.com", "second-password");
    expect(await readSignUpLink(db, { token: firstLink, secret })).toEqual({ kind: "invalid" });
    expect(await completeSignUp(db, { token: firstLink, secret, password: "whatever-1" })).toEqual({ ok: false, state: "invalid" });

    const forged = await signJWT({ email: "twice@example.com", userId: second.id }, "another-secret-that-is-long-enough-012345", 3600);
    expect(await readSignUpLink(db, { token: forged, secret })).toEqual({ kind: "invalid" });
    const expired = await linkToken("twice@example.com", second.id, -10);
    expect(await readSignUpLink(db, { token: expired, secret })).toEqual({ kind: "invalid" });
    const otherEmail = await linkToken("someone@example.com", second.id);
    expect(await readSignUpLink(db, { token: otherEmail, secret })).toEqual({ kind: "invalid" });
    expect(await readSignUpLink(db, { token: "", secret })).toEqual({ kind: "invalid" });
    expect(await db.user.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ emailVerified: false });
  });
});

describe("pending sign-ups never block an account", () => {
  it("an operator's `npm run users -- add` replaces a pending sign-up; a verified account is kept", async () => {
    const db = handle.db;
    const pending = await pendingSignUp("operator-made@example.com", "attacker-password");
    const created = await createUser(db, { email: "operator-made@example.com", password: "operator-password" });
    expect(created.id).not.toBe(pending.id);
    expect(await db.user.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ emailVerified: true });
    expect(await db.session.count({ where: { userId: pending.id } })).toBe(0);

    await deletePendingSignUp(db, "operator-made@example.com");
    expect(await db.user.count({ where: { id: created.id } })).toBe(1);
    await expect(createUser(db, { email: "operator-made@example.com" })).rejects.toThrow(/already exists/);
  });
});
