import { hashPassword } from "better-auth/crypto";
import type { DbClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserSummary } from "@/lib/users/queries";

export type CreateUserOptions = {
  email: string;
  name?: string;
  /** Lets the account sign in to the browser app; stored only as a hash. */
  password?: string;
  /** Accounts made by an operator are trusted; sign-ups prove their email by link. */
  emailVerified?: boolean;
};

/**
 * Removes a sign-up nobody has verified for this email (with its password and
 * any session). Until the mailbox owner verifies it, it is not an account: it
 * must never block the owner's own sign-up or an operator's `npm run users -- add`.
 */
export async function deletePendingSignUp(db: DbClient, email: string): Promise<void> {
  await db.user.deleteMany({ where: { email: email.trim().toLowerCase(), emailVerified: false } });
}

export async function createUser(db: DbClient, options: CreateUserOptions): Promise<UserSummary> {
  const email = options.email.trim().toLowerCase();
  await deletePendingSignUp(db, email);
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new AppError("CONFLICT", { userMessage: `An account for ${email} already exists` });

  const passwordHash = options.password ? await hashPassword(options.password) : undefined;
  const user = await db.user.create({
    data: { email, name: options.name ?? email.split("@")[0] ?? "", emailVerified: options.emailVerified ?? true },
    select: { id: true, email: true },
  });
  if (passwordHash) {
    // The browser app's auth library keeps a password on a "credential" account keyed by the user id.
    await db.account.create({ data: { userId: user.id, providerId: "credential", accountId: user.id, password: passwordHash } });
  }
  return user;
}
