/**
 * Markdown written back over a note's blocks keeps what it did not change.
 * Blocks are lined up by their Markdown: a block whose Markdown is unchanged
 * stays exactly as stored (its id, colours, alignment, column widths and
 * everything else Markdown cannot carry). Between lined-up blocks, a changed
 * block in the place of one that reads as the same kind of block keeps its
 * id and what Markdown cannot say, and takes what the Markdown says. So
 * Markdown read and written back unchanged is an identity, and changing one
 * block's text changes that block only.
 *
 * Pure; runs in the conversion worker. Relative imports only.
 */
import { blockMarkdownList, markdownToBlocks, type Block, type Inline, type TableContent } from "./markdown-blocks";

/**
 * Largest middle part (after the common start and end are set aside) lined up
 * block by block, in cells of the LCS table: 4,000,000 cells is a few
 * milliseconds. Past it only the common start and end are kept.
 */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Pairs of indexes (in `a`, in `b`) of a longest common subsequence of two
 * lists of strings. The common start and end are matched first, so an edit in
 * one place costs only the table of what lies between.
 */
export function alignBlocks(a: readonly string[], b: readonly string[]): [number, number][] {
  return alignBy(a.length, b.length, (i, j) => a[i] === b[j]);
}

function alignBy(lengthA: number, lengthB: number, same: (i: number, j: number) => boolean): [number, number][] {
  const pairs: [number, number][] = [];
  let start = 0;
  while (start < lengthA && start < lengthB && same(start, start)) {
    pairs.push([start, start]);
    start += 1;
  }
  let endA = lengthA;
  let endB = lengthB;
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

/** The props each block type's Markdown says; the rest only the stored block knows. */
const MARKDOWN_PROPS: Record<string, readonly string[]> = {
  heading: ["level"],
  numberedListItem: ["start"],
  checkListItem: ["checked"],
  codeBlock: ["language"],
  image: ["url", "name", "caption"],
};

/** The type a block reads back as from its own Markdown. */
const readsAs = (type: string) => (type === "toggleListItem" ? "bulletListItem" : type);

// Nested blocks deeper than this are lined up as whole blocks only.
const MAX_NESTING = 32;

/**
 * Markdown written over `current` (the note's blocks as stored): its blocks,
 * every one whose Markdown is unchanged kept exactly as stored.
 */
export function markdownOverBlocks(current: readonly unknown[], markdown: string): unknown[] {
  const fresh = new Set<string>();
  const read = markdownToBlocks(markdown, {
    newId: () => {
      const id = crypto.randomUUID();
      fresh.add(id);
      return id;
    },
  });
  return keepUnchangedBlocks(current, read, fresh);
}

/**
 * A block's JSON, keys sorted, without the ids Markdown does not carry: a
 * stored block's own id, and the ids the reader made (`fresh`). A block read
 * from a JSON comment keeps its id here, as its Markdown does. Two blocks with
 * the same key have the same Markdown (which is a function of this JSON, ids
 * aside), so most of an unchanged note lines up without writing any Markdown.
 */
function blockKey(value: unknown, dropId: (id: unknown) => boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => blockKey(item, dropId)).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const parts: string[] = [];
  for (const key of keys) {
    if (record[key] === undefined || (key === "id" && typeof record.type === "string" && "children" in record && dropId(record[key]))) continue;
    parts.push(`${JSON.stringify(key)}:${blockKey(record[key], dropId)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * `next` (blocks just read from Markdown, the reader's ids in `fresh`) with
 * every block that lines up with one of `current` replaced by it, and every
 * changed block that takes the place of one of the same kind merged into it.
 * Blocks line up by their Markdown; equal keys (blockKey) stand for equal
 * Markdown, so Markdown is written only for blocks whose keys differ.
 */
function keepUnchangedBlocks(current: readonly unknown[], next: readonly Block[], fresh: ReadonlySet<string>, depth = 0): unknown[] {
  if (current.length === 0) return [...next];
  // A stored block's id is dropped from its key only when it is one Markdown would not write (a non-empty string).
  const keysA = current.map((block) => blockKey(block, (id) => typeof id === "string" && id !== ""));
  const keysB = next.map((block) => blockKey(block, (id) => typeof id === "string" && fresh.has(id)));
  const markdownA: (string | undefined)[] = [];
  const markdownB: (string | undefined)[] = [];
  const markdownOf = (list: (string | undefined)[], blocks: readonly unknown[], index: number) => (list[index] ??= blockMarkdownList([blocks[index]])[0]!);
  const pairs = alignBy(current.length, next.length, (i, j) => keysA[i] === keysB[j] || markdownOf(markdownA, current, i) === markdownOf(markdownB, next, j));
  const merged: unknown[] = [...next];
  for (const [i, j] of pairs) merged[j] = current[i];
  if (depth >= MAX_NESTING) return merged;
  // Gaps between lined-up blocks with as many blocks on each side: paired in order.
  const bounds: [number, number][] = [[-1, -1], ...pairs, [current.length, next.length]];
  for (let k = 1; k < bounds.length; k += 1) {
    const [fromI, fromJ] = bounds[k - 1]!;
    const [toI, toJ] = bounds[k]!;
    if (toI - fromI !== toJ - fromJ) continue;
    for (let step = 1; fromI + step < toI; step += 1) {
      const was = current[fromI + step] as Block;
      const now = next[fromJ + step]!;
      if (!isStoredBlock(was) || readsAs(was.type) !== now.type) continue;
      merged[fromJ + step] = mergeBlock(was, now, fresh, depth);
    }
  }
  return merged;
}

function isStoredBlock(value: unknown): value is Block {
  const block = value as Block | null;
  return typeof block === "object" && block !== null && typeof block.id === "string" && typeof block.type === "string"
    && typeof block.props === "object" && block.props !== null && Array.isArray(block.children);
}

/** The stored block, with what the Markdown says of it. */
function mergeBlock(was: Block, now: Block, fresh: ReadonlySet<string>, depth: number): Block {
  const props = { ...was.props };
  for (const name of MARKDOWN_PROPS[now.type] ?? []) {
    if (name in now.props) props[name] = now.props[name];
    else delete props[name];
  }
  const block: Block = { ...was, props, children: keepUnchangedBlocks(was.children, now.children, fresh, depth + 1) as Block[] };
  if (now.content !== undefined) block.content = was.type === "table" ? mergeTable(was.content as TableContent, now.content as TableContent) : (now.content as Inline[]);
  return block;
}

/** The new rows and cells, keeping the stored table's widths, header rows and each cell's colours and alignment where they still fit. */
function mergeTable(was: TableContent, now: TableContent): TableContent {
  const sameWidth = was.columnWidths.length === now.columnWidths.length;
  const table: TableContent = { ...was, columnWidths: sameWidth ? was.columnWidths : now.columnWidths, rows: now.rows };
  table.rows = now.rows.map((row, r) => ({
    cells: row.cells.map((cell, c) => {
      const stored = was.rows[r]?.cells[c];
      return sameWidth && stored && !Array.isArray(stored) && stored.props ? { ...cell, props: stored.props } : cell;
    }),
  }));
  return table;
}
