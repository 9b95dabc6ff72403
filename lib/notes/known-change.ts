import { isDeepStrictEqual } from "node:util";
import { Prisma, queryRows, type Transaction } from "@/lib/db/client";

/**
 * What a write changed, when the writer knows it (a targeted edit): how many
 * leading and trailing blocks of the content, and characters of the text,
 * it kept. The revision policy (prisma/definitions/note_revisions.sql) takes
 * these counts from the transaction's `notes.change` setting instead of
 * comparing the whole bodies, so recording the revision of a one-block edit
 * costs what the block costs. A count may be smaller than the true one (the
 * revision then stores a little more), never larger.
 */
export type KnownChange = {
  /** The note, and the version the write changed (the setting counts for that write only). */
  noteId: string;
  version: number;
  keepHead: number;
  keepTail: number;
  textKeepHead: number;
  textKeepTail: number;
};

const CHANGE_SETTING = "notes.change";

/**
 * The blocks `after` kept from `before`, from the start and, of what is left,
 * from the end: the same object (an edit writes untouched blocks back as they
 * were read), or one that is the same as JSON, keys in any order, as
 * PostgreSQL compares jsonb. `same`: every block kept, nothing changed.
 */
export function keptBlocks(before: readonly unknown[], after: readonly unknown[]): { head: number; tail: number; same: boolean } {
  const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
  const same = (a: unknown, b: unknown) => a === b || isDeepStrictEqual(asStored(a), asStored(b));
  const most = Math.min(before.length, after.length);
  let head = 0;
  while (head < most && same(before[head], after[head])) head += 1;
  let tail = 0;
  while (tail < most - head && same(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail += 1;
  return { head, tail, same: before.length === after.length && head === before.length };
}

/**
 * The characters `after` kept from `before`, counted as PostgreSQL counts
 * them (code points, not UTF-16 units): the longest common start and, of what
 * is left, the longest common end. A surrogate pair is never split.
 */
export function keptText(before: string, after: string): { head: number; tail: number } {
  const most = Math.min(before.length, after.length);
  let head = 0;
  while (head < most && before.charCodeAt(head) === after.charCodeAt(head)) head += 1;
  if (head > 0 && isHighSurrogate(after.charCodeAt(head - 1))) head -= 1;
  let tail = 0;
  while (tail < most - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail += 1;
  if (tail > 0 && isLowSurrogate(after.charCodeAt(after.length - tail))) tail -= 1;
  return { head: codePoints(after, 0, head), tail: codePoints(after, after.length - tail, after.length) };
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

// No pair is split at either end, so each low surrogate in the range ends a pair counted once.
function codePoints(text: string, from: number, to: number): number {
  let count = to - from;
  for (let i = from; i < to; i += 1) if (isLowSurrogate(text.charCodeAt(i))) count -= 1;
  return count;
}

/** Says what the transaction's next write of the note changed (see KnownChange). */
export async function declareKnownChange(tx: Transaction, change: KnownChange): Promise<void> {
  await queryRows(tx, Prisma.sql`SELECT set_config(${CHANGE_SETTING}, ${JSON.stringify(change)}, true)`);
}
