import type { Db } from "@/lib/db/client";
import { contentToText } from "@/lib/editor/content-text";
import { blockMarkdownOf } from "@/lib/editor/markdown";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

/**
 * Largest middle part (after the common start and end are set aside) lined up
 * block by block, in cells of the LCS table: 4,000,000 cells is a few
 * milliseconds. Past it only the common start and end are kept, and the
 * middle is taken as converted.
 */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Pairs of indexes (in `a`, in `b`) of a longest common subsequence of two
 * lists of strings; null entries never match. The common start and end are
 * matched first, so an edit in one place costs only the table of what lies
 * between.
 */
export function alignBlocks(a: readonly (string | null)[], b: readonly (string | null)[]): [number, number][] {
  const same = (i: number, j: number) => a[i] !== null && a[i] === b[j];
  const pairs: [number, number][] = [];
  let start = 0;
  while (start < a.length && start < b.length && same(start, start)) {
    pairs.push([start, start]);
    start += 1;
  }
  let endA = a.length;
  let endB = b.length;
  const tail: [number, number][] = [];
  while (endA > start && endB > start && same(endA - 1, endB - 1)) {
    endA -= 1;
    endB -= 1;
    tail.push([endA, endB]);
  }
  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && n * m <= MAX_LCS_CELLS) {
    // lengths[i * (m + 1) + j]: LCS length of a[start + i…endA) and b[start + j…endB).
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        lengths[i * width + j] = same(start + i, start + j)
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (same(start + i, start + j)) {
        pairs.push([start + i, start + j]);
        i += 1;
        j += 1;
      } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i += 1;
      else j += 1;
    }
  }
  return pairs.concat(tail.reverse());
}

/**
 * The new blocks, except that each one lined up with a current block of the
 * same Markdown is that current block, exactly as stored (its id, colours,
 * alignment and everything else Markdown cannot carry).
 */
function keepMatchingBlocks(
  current: readonly unknown[],
  currentMarkdown: readonly (string | null)[],
  next: readonly unknown[],
  nextMarkdown: readonly (string | null)[],
): unknown[] {
  const merged = [...next];
  for (const [i, j] of alignBlocks(currentMarkdown, nextMarkdown)) merged[j] = current[i];
  return merged;
}

type BlockWithChildren = { type?: unknown; children?: unknown };
const childrenOf = (block: unknown): unknown[] => {
  const children = (block as BlockWithChildren | null)?.children;
  return Array.isArray(children) ? children : [];
};
// Nested lists deeper than this are lined up at the level above only.
const MAX_NESTING = 8;

/**
 * keepMatchingBlocks, then inside blocks with children: where a changed block
 * and the new one in its place are the same block apart from their children
 * (the same type and the same Markdown on their own), the current block stays
 * and only its children are lined up the same way. So one item changed in a
 * nested list changes that item only, not the whole list.
 */
export async function keepMatchingNested(
  current: readonly unknown[],
  currentMarkdown: readonly (string | null)[],
  next: readonly unknown[],
  nextMarkdown: readonly (string | null)[],
  markdownOf: (blocks: unknown[]) => Promise<(string | null)[] | null>,
  depth = 0,
): Promise<unknown[]> {
  const pairs = alignBlocks(currentMarkdown, nextMarkdown);
  const merged = [...next];
  for (const [i, j] of pairs) merged[j] = current[i];
  if (depth >= MAX_NESTING) return merged;
  // Gaps between lined-up blocks with as many blocks on each side: paired in order.
  const bounds: [number, number][] = [[-1, -1], ...pairs, [current.length, next.length]];
  for (let k = 1; k < bounds.length; k += 1) {
    const [fromI, fromJ] = bounds[k - 1]!;
    const [toI, toJ] = bounds[k]!;
    if (toI - fromI !== toJ - fromJ) continue;
    for (let step = 1; fromI + step < toI; step += 1) {
      const [was, now] = [current[fromI + step], next[fromJ + step]];
      const [wasChildren, nowChildren] = [childrenOf(was), childrenOf(now)];
      if ((wasChildren.length === 0 && nowChildren.length === 0) || (was as BlockWithChildren).type !== (now as BlockWithChildren).type) continue;
      const alone = await markdownOf([{ ...(was as object), children: [] }, { ...(now as object), children: [] }]);
      if (!alone || alone[0] === null || alone[0] !== alone[1]) continue;
      const [wasMarkdown, nowMarkdown] = await Promise.all([markdownOf(wasChildren), markdownOf(nowChildren)]);
      if (!wasMarkdown || !nowMarkdown) continue;
      merged[fromJ + step] = { ...(was as object), children: await keepMatchingNested(wasChildren, wasMarkdown, nowChildren, nowMarkdown, markdownOf, depth + 1) };
    }
  }
  return merged;
}

type ResolvedMarkdownBody = { content?: unknown; contentText?: string; derivedMarkdown?: string | null };

/**
 * A body written as Markdown over an existing note: every top-level block
 * whose Markdown is unchanged stays the note's own block, so Markdown read,
 * edited and written back loses nothing it did not touch. The note is read as
 * it is now (or at `ifVersion`, when that is its version); a write that comes
 * in meanwhile is overwritten as by any write of the whole body. `resolved` is
 * the body after resolveMarkdownBody (the Markdown's own blocks);
 * `givenText` the contentText the caller gave, if any.
 */
export async function keepUnchangedBlocks<T extends ResolvedMarkdownBody>(
  db: Db,
  { id, userId, ifVersion, givenText }: { id: string; userId: string; ifVersion?: number; givenText?: string },
  resolved: T,
): Promise<T> {
  if (!Array.isArray(resolved.content)) return resolved;
  const current = await db.note.findFirst({ where: { id, userId }, select: { content: true, version: true } });
  // A missing note or a stale ifVersion fails in the write itself.
  if (!current || (ifVersion !== undefined && current.version !== ifVersion)) return resolved;
  if (!Array.isArray(current.content) || current.content.length === 0) return resolved;
  let currentMarkdown: (string | null)[] | null;
  let nextMarkdown: (string | null)[] | null;
  try {
    [currentMarkdown, nextMarkdown] = await Promise.all([blockMarkdownOf(current.content), blockMarkdownOf(resolved.content)]);
  } catch (err) {
    // Over the conversion budget: the body is written as converted, as before
    // this lining up existed, rather than refused for it.
    if (!(err instanceof AppError && err.code === "CONTENT_TOO_COMPLEX")) throw err;
    log.info("markdown_merge.skipped", { reason: err.userMessage });
    return resolved;
  }
  if (!currentMarkdown || !nextMarkdown) return resolved;
  let content: unknown[];
  try {
    content = await keepMatchingNested(current.content, currentMarkdown, resolved.content, nextMarkdown, blockMarkdownOf);
  } catch (err) {
    if (!(err instanceof AppError && err.code === "CONTENT_TOO_COMPLEX")) throw err;
    log.info("markdown_merge.nested_skipped", { reason: err.userMessage });
    content = keepMatchingBlocks(current.content, currentMarkdown, resolved.content, nextMarkdown);
  }
  // Kept blocks may carry text Markdown does not (an image's caption).
  return { ...resolved, content, contentText: givenText ?? contentToText(content) };
}
