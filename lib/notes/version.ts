import { Prisma, type Db } from "@/lib/db/client";

/**
 * The version check of every conditional note write, in SQL: ` AND version = n`
 * with `ifVersion`, nothing without (`column` names the row's version).
 */
export const atVersionSql = (ifVersion: number | undefined, column = "version") =>
  ifVersion === undefined ? Prisma.empty : Prisma.sql` AND ${Prisma.raw(column)} = ${ifVersion}`;

/**
 * A note's current version and update time, without its body: cheap enough
 * for an open editor to ask whether someone else has written since.
 * Null when the note is gone or not the user's.
 */
export async function getNoteVersion(
  db: Db,
  { id, userId }: { id: string; userId: string },
): Promise<{ version: number; updatedAt: string } | null> {
  const row = await db.note.findFirst({ where: { id, userId }, select: { version: true, updatedAt: true } });
  return row ? { version: row.version, updatedAt: row.updatedAt.toISOString() } : null;
}
