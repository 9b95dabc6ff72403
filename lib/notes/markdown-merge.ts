import type { Db } from "@/lib/db/client";

/**
 * The note's blocks as stored, for Markdown written over it to keep every
 * block it leaves unchanged (lib/editor/markdown-merge.ts, in the conversion
 * worker); undefined when there are none to keep. The note is read as it is
 * now (or at `ifVersion`, when that is its version); a missing note or a stale
 * ifVersion fails in the write itself, and a write that comes in meanwhile is
 * overwritten as by any write of the whole body.
 */
export async function blocksToKeep(db: Db, { id, userId, ifVersion }: { id: string; userId: string; ifVersion?: number }): Promise<unknown[] | undefined> {
  const current = await db.note.findFirst({ where: { id, userId }, select: { content: true, version: true } });
  if (!current || (ifVersion !== undefined && current.version !== ifVersion)) return undefined;
  return Array.isArray(current.content) && current.content.length > 0 ? current.content : undefined;
}
