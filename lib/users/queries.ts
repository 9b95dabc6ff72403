import type { Db } from "@/lib/db/client";

export type UserSummary = { id: string; email: string };

/**
 * The account that may act for a verified email. Emails compare
 * case-insensitively (citext); an account whose email is not yet verified is
 * treated as absent, since the email is the join key with the identity service.
 */
export async function findVerifiedUserByEmail(db: Db, email: string): Promise<UserSummary | null> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, emailVerified: true } });
  if (!user || !user.emailVerified) return null;
  return { id: user.id, email: user.email };
}

export async function listUsers(db: Db) {
  return db.user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, emailVerified: true, createdAt: true },
  });
}

/** What erasing an account would remove, for the confirmation that names it. */
export type AccountContents = { email: string; notes: number; trashed: number; tags: number };

export async function getAccountContents(db: Db, { userId }: { userId: string }): Promise<AccountContents | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, noteCount: true, _count: { select: { trashedNotes: true, tags: true } } },
  });
  return user ? { email: user.email, notes: user.noteCount, trashed: user._count.trashedNotes, tags: user._count.tags } : null;
}
