import type { Db } from "@/lib/db/client";

/**
 * The note's blocks as stored, for Markdown written over it to keep every
 * block it leaves unchanged (lib/editor/markdown-merge.ts, in the conversion
 * worker; none when there are none to keep), and its title, which the
 * Markdown's first line may be (withoutTitleLine). The note is read as it is
 * now (or at `ifVersion`, when that is its version); a missing note or a stale
 * ifVersion fails in the write itself, and a write that comes in meanwhile is
 * overwritten as by any write of the whole body.
 */
/** What Markdown written over a note is read against: its blocks, its title and its body's stored Markdown (null when not stored). */
export type MarkdownBase = { blocks?: unknown[]; title: string; body: string | null };

export async function blocksToKeep(
  db: Db,
  { id, userId, ifVersion }: { id: string; userId: string; ifVersion?: number },
): Promise<MarkdownBase | undefined> {
  const current = await db.note.findFirst({ where: { id, userId }, select: { content: true, title: true, contentMarkdown: true, version: true } });
  if (!current || (ifVersion !== undefined && current.version !== ifVersion)) return undefined;
  return {
    title: current.title,
    body: current.contentMarkdown,
    ...(Array.isArray(current.content) && current.content.length > 0 ? { blocks: current.content } : {}),
  };
}
