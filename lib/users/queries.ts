import type { DbClient } from "@/lib/db/client";

export type UserSummary = { id: string; email: string };

/**
 * The account that may act for a verified email. Emails compare
 * case-insensitively (citext); an account whose email is not yet verified is
 * treated as absent, since the email is the join key with the identity service.
 */
export async function findVerifiedUserByEmail(db: DbClient, email: string): Promise<UserSummary | null> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, emailVerified: true } });
  if (!user || !user.emailVerified) return null;
  return { id: user.id, email: user.email };
}

export async function listUsers(db: DbClient) {
  return db.user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, emailVerified: true, createdAt: true },
  });
}
