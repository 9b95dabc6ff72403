import { hashPassword } from "better-auth/crypto";
import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { writeTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { apiLimitKey, authAccountLimitKeyPattern } from "@/lib/rate-limit/keys";
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
export async function deletePendingSignUp(db: Db, email: string): Promise<void> {
  await db.user.deleteMany({ where: { email: email.trim().toLowerCase(), emailVerified: false } });
}

export async function createUser(db: Db, options: CreateUserOptions): Promise<UserSummary> {
  const email = options.email.trim().toLowerCase();
  await deletePendingSignUp(db, email);
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new AppError("ACCOUNT_EXISTS", { args: [email] });

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

/**
 * Erases an account and everything of it, in one transaction: its notes (and
 * their tag links), trashed notes, tags, search vocabulary, sign-in methods,
 * browser sessions and idempotency records go with the users row (ON DELETE
 * CASCADE); the rows keyed on it without a foreign key (its rate-limit
 * windows, its password reset and sign-up links) are deleted by key. The account's write lock is
 * taken first, so a write of it in flight either commits before or finds no
 * account. Returns the erased account, or null when there was none.
 */
export async function eraseUser(db: Db, { userId }: { userId: string }): Promise<UserSummary | null> {
  return writeTransaction(
    db,
    async (tx) => {
      const [user] = await queryRows<UserSummary>(tx, Prisma.sql`SELECT id::text AS id, email FROM users WHERE id = ${userId}::uuid`);
      if (!user) return null;
      await queryRows(tx, Prisma.sql`DELETE FROM rate_limits WHERE key = ${apiLimitKey(user.id)} OR key LIKE ${authAccountLimitKeyPattern(user.email)}`);
      // Its sign-up and password links: keyed on its id, or naming its email in any letter case.
      await queryRows(tx, Prisma.sql`
        DELETE FROM verifications
        WHERE value = ${user.id} OR strpos(lower(value), lower(${user.email})) > 0 OR strpos(lower(identifier), lower(${user.email})) > 0`);
      await queryRows(tx, Prisma.sql`DELETE FROM users WHERE id = ${userId}::uuid`);
      return user;
    },
    { lockUserId: userId },
  );
}

/** Erases the account with this email (see eraseUser); 404 when there is none. */
export async function eraseUserByEmail(db: Db, email: string): Promise<UserSummary> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  const erased = user ? await eraseUser(db, { userId: user.id }) : null;
  if (!erased) throw new AppError("ACCOUNT_NOT_FOUND", { args: [email.trim().toLowerCase()] });
  return erased;
}
