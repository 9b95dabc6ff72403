import { hashPassword, verifyJWT } from "better-auth/crypto";
import { z } from "zod";
import type { Db } from "@/lib/db/client";

/**
 * Finishing a sign-up: the verification link proves the mailbox, and the
 * password is chosen on the link's own page, in the same step. Whatever
 * password the sign-up form set (possibly by someone else who typed this
 * email first) never signs in: it is replaced here, and every session and
 * pending reset link of the account is revoked.
 */

// The auth library's verification token: a signed JWT naming the email and the pending user.
const ZVerificationTokenSchema = z.object({ email: z.string(), userId: z.string(), updateTo: z.undefined().optional() });

export type SignUpLinkState =
  | { kind: "pending"; userId: string; email: string }
  | { kind: "verified"; email: string }
  /** Forged, expired, or for a sign-up that a newer one replaced. */
  | { kind: "invalid" };

export async function readSignUpLink(db: Db, input: { token: string; secret: string }): Promise<SignUpLinkState> {
  const payload = input.token ? await verifyJWT(input.token, input.secret) : null;
  const parsed = ZVerificationTokenSchema.safeParse(payload);
  if (!parsed.success) return { kind: "invalid" };
  const user = await db.user.findUnique({ where: { id: parsed.data.userId }, select: { id: true, email: true, emailVerified: true } });
  if (!user || user.email.toLowerCase() !== parsed.data.email.toLowerCase()) return { kind: "invalid" };
  return user.emailVerified ? { kind: "verified", email: user.email } : { kind: "pending", userId: user.id, email: user.email };
}

export type CompleteSignUpResult = { ok: true; email: string } | { ok: false; state: Exclude<SignUpLinkState["kind"], "pending"> };

/** Verifies the email of a pending sign-up and sets its only password, revoking everything else. */
export async function completeSignUp(db: Db, input: { token: string; secret: string; password: string }): Promise<CompleteSignUpResult> {
  const link = await readSignUpLink(db, input);
  if (link.kind !== "pending") return { ok: false, state: link.kind };
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    // Conditional on still being pending: of two submissions of one link, one wins.
    const verified = await tx.user.updateMany({ where: { id: link.userId, emailVerified: false }, data: { emailVerified: true } });
    if (verified.count === 0) return { ok: false as const, state: "verified" as const };
    await tx.account.deleteMany({ where: { userId: link.userId } });
    // The auth library keeps a password on a "credential" account keyed by the user id.
    await tx.account.create({ data: { userId: link.userId, providerId: "credential", accountId: link.userId, password: passwordHash } });
    await tx.session.deleteMany({ where: { userId: link.userId } });
    // Password reset links name the user id as their value.
    await tx.verification.deleteMany({ where: { value: link.userId } });
    return { ok: true as const, email: link.email };
  });
}
