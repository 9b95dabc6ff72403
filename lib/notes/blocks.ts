import { randomUUID } from "node:crypto";
import { blockContentKind, blockHasProp, partialBlockProblem, partialContentProblem, partialPropsProblem } from "@/lib/body/block-shape";
import { contentToText, inlineText } from "@/lib/body/content-text";
import { bodyBlocks } from "@/lib/body/document";
import type { Db } from "@/lib/db/client";
import { getNoteOrThrow } from "@/lib/notes/queries";
import type { TBlockOutline, TNoteBlocksResponse } from "@/lib/notes/schemas";

/**
 * Pure operations on a note's body as BlockNote JSON (a list of blocks, each
 * with `id`, `type`, `props`, `content` and `children`), for targeted edits
 * (lib/notes/edits.ts) and the block outline agents address blocks by. Every
 * function returns new lists and leaves each block it does not change the
 * very same object, so untouched blocks are written back exactly as stored.
 */

export type Block = { id?: unknown; type?: unknown; props?: unknown; content?: unknown; children?: unknown; [key: string]: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A body's blocks: a body that is not a list (any JSON the API stored) has none. */
export function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

const childrenOf = (block: Block): Block[] => (Array.isArray(block.children) ? block.children.filter(isRecord) : []);

/** Every block id in a list, nested children included. */
function collectIds(blocks: readonly Block[], ids = new Set<string>()): Set<string> {
  const pending = [...blocks];
  while (pending.length > 0) {
    const block = pending.pop()!;
    if (typeof block.id === "string") ids.add(block.id);
    pending.push(...childrenOf(block));
  }
  return ids;
}

/**
 * Blocks to insert into a body: each (children included) gets a new id when
 * it has none or one the body already uses, so every block stays addressable.
 */
export function withFreshIds(blocks: readonly Block[], body: readonly Block[]): Block[] {
  const taken = collectIds(body);
  const visit = (block: Block): Block => {
    const id = typeof block.id === "string" && !taken.has(block.id) ? block.id : randomUUID();
    taken.add(id);
    const children = Array.isArray(block.children) ? childrenOf(block).map(visit) : undefined;
    return { ...block, id, ...(children ? { children } : {}) };
  };
  return blocks.map(visit);
}

/** Where a block sits: the list holding it (top level or some block's children) and its index there. */
type Location = { path: number[] };

function locate(blocks: readonly Block[], id: string): Location | null {
  const pending: { list: readonly Block[]; path: number[] }[] = [{ list: blocks, path: [] }];
  while (pending.length > 0) {
    const { list, path } = pending.pop()!;
    for (let i = 0; i < list.length; i += 1) {
      const block = list[i]!;
      if (block.id === id) return { path: [...path, i] };
      const children = childrenOf(block);
      if (children.length > 0) pending.push({ list: children, path: [...path, i] });
    }
  }
  return null;
}

/** Replaces the list at `path`'s parent (a copy down the path; everything off it is kept as is). */
function updateList(blocks: readonly Block[], parentPath: readonly number[], change: (list: Block[]) => Block[]): Block[] {
  if (parentPath.length === 0) return change([...blocks]);
  const [head, ...rest] = parentPath;
  return blocks.map((block, i) => (i === head ? { ...block, children: updateList(childrenOf(block), rest, change) } : block));
}

export class BlockEditError extends Error {}

function locateOrThrow(blocks: readonly Block[], id: string): Location {
  const found = locate(blocks, id);
  if (!found) throw new BlockEditError(`no block has id ${id}`);
  return found;
}

/** The block with `id` changed by `change`, wherever it is nested. */
export function updateBlock(blocks: readonly Block[], id: string, change: (block: Block) => Block): Block[] {
  const { path } = locateOrThrow(blocks, id);
  const index = path.at(-1)!;
  return updateList(blocks, path.slice(0, -1), (list) => {
    list[index] = change(list[index]!);
    return list;
  });
}

/**
 * Blocks, a block's type, props or content given by a client that the note
 * schema does not hold. `field` is the operation's field at fault (blocks,
 * type, props, content, children); the message is "<path>: <reason>".
 */
export class InvalidBlockError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Throws InvalidBlockError unless every block of `blocks` is a block of the note schema, as a client may give one; paths start at `field`. */
export function assertBlocks(blocks: readonly unknown[], field: string): void {
  for (let i = 0; i < blocks.length; i += 1) {
    const problem = partialBlockProblem(blocks[i], `${field}[${i}]`);
    if (problem) throw new InvalidBlockError(field, problem);
  }
}

/** What update_block sets on a block (its children are set apart: they need the body for fresh ids). */
export type BlockChange = { type?: string; props?: Record<string, unknown>; content?: unknown };

/**
 * Throws InvalidBlockError when what update_block gives is not for the note
 * schema whatever block it lands on: an unknown type, or props or content
 * that do not suit the type given.
 */
export function assertBlockChange({ type, props, content }: BlockChange): void {
  if (type === undefined) return;
  if (blockContentKind(type) === undefined) throw new InvalidBlockError("type", `type: unknown block type ${JSON.stringify(type)}`);
  const propsProblem = props === undefined ? null : partialPropsProblem(type, props, "props");
  if (propsProblem) throw new InvalidBlockError("props", propsProblem);
  const contentProblem = content === undefined ? null : partialContentProblem(type, content, "content");
  if (contentProblem) throw new InvalidBlockError("content", contentProblem);
}

const isEmptyContent = (content: unknown) => content === undefined || content === "" || (Array.isArray(content) && content.length === 0);

/**
 * The block with a new type, props or content, checked against the note
 * schema (InvalidBlockError when it would not hold). Props are merged over
 * the block's own; a new type keeps only the props it has (as the editor
 * does when a block changes type: a heading's level means nothing to a
 * paragraph) and the content only if it fits: content that does not is an
 * error rather than lost, unless it is empty.
 */
export function changedBlock(block: Block, change: BlockChange): Block {
  if (change.type === undefined && change.props === undefined && change.content === undefined) return block;
  const type = change.type ?? block.type;
  const kind = typeof type === "string" ? blockContentKind(type) : undefined;
  if (typeof type !== "string" || kind === undefined) {
    if (change.type !== undefined) throw new InvalidBlockError("type", `type: unknown block type ${JSON.stringify(change.type)}`);
    throw new InvalidBlockError("type", `type: the block's own type ${JSON.stringify(type)} is not one the editor knows; give type`);
  }
  const retyped = type !== block.type;
  const own = isRecord(block.props) ? block.props : {};
  const kept = retyped ? Object.fromEntries(Object.entries(own).filter(([name]) => blockHasProp(type, name))) : own;
  const next: Block = { ...block, type };
  if (retyped || change.props !== undefined) {
    next.props = { ...kept, ...change.props };
    // A new type's props are all checked (the ones kept may not suit it); otherwise only those given.
    const problem = partialPropsProblem(type, retyped ? next.props : change.props, "props");
    if (problem) throw new InvalidBlockError("props", problem);
  }
  if (change.content !== undefined) {
    const problem = partialContentProblem(type, change.content, "content");
    if (problem) throw new InvalidBlockError("content", problem);
    next.content = change.content;
  } else if (retyped && partialContentProblem(type, block.content, "content") !== null) {
    if (!isEmptyContent(block.content)) {
      throw new InvalidBlockError(
        "content",
        kind === "none"
          ? `content: a "${type}" block has no content, and this block's is not empty: delete the block and insert a new one instead`
          : `content: the block's content does not fit a "${type}" block: give content`,
      );
    }
    if (kind === "table") throw new InvalidBlockError("content", `content: a "table" block needs table content: give content`);
    if (kind === "none") delete next.content;
    else next.content = [];
  }
  return next;
}

/** The body without the block `id` (and its children). */
export function deleteBlock(blocks: readonly Block[], id: string): Block[] {
  const { path } = locateOrThrow(blocks, id);
  return updateList(blocks, path.slice(0, -1), (list) => list.filter((_, i) => i !== path.at(-1)));
}

export type MoveTarget = { before: string } | { after: string } | { to: "start" | "end" };

/** The block `id` taken out and put before or after another block (beside it, at its level), or first or last in the body. */
export function moveBlock(blocks: readonly Block[], id: string, target: MoveTarget): Block[] {
  const { path } = locateOrThrow(blocks, id);
  const moved = blockAt(blocks, path);
  const without = deleteBlock(blocks, id);
  if ("to" in target) return target.to === "start" ? [moved, ...without] : [...without, moved];
  const anchor = "before" in target ? target.before : target.after;
  if (anchor === id) throw new BlockEditError("a block cannot move next to itself");
  const found = locate(without, anchor);
  if (!found) {
    // Not found after the move: the anchor was missing, or inside the moved block.
    throw new BlockEditError(locate(blocks, anchor) ? `block ${anchor} is inside the block being moved` : `no block has id ${anchor}`);
  }
  const index = found.path.at(-1)! + ("after" in target ? 1 : 0);
  return updateList(without, found.path.slice(0, -1), (list) => {
    list.splice(index, 0, moved);
    return list;
  });
}

function blockAt(blocks: readonly Block[], path: readonly number[]): Block {
  let list = blocks;
  let block: Block | undefined;
  for (const index of path) {
    block = list[index];
    list = block ? childrenOf(block) : [];
  }
  return block!;
}

const headingLevel = (block: Block): number | null => {
  if (block.type !== "heading") return null;
  const level = isRecord(block.props) ? block.props.level : undefined;
  return typeof level === "number" ? level : 1;
};

/** The span [start, end) of the top-level section headed `heading`: the heading and every block up to the next heading of its level or higher. */
export function findSection(blocks: readonly Block[], heading: string, level?: number): { start: number; end: number } {
  const wanted = heading.trim();
  const starts = blocks.flatMap((block, i) => {
    const own = headingLevel(block);
    return own !== null && (level === undefined || own === level) && inlineText(block.content).trim() === wanted ? [i] : [];
  });
  if (starts.length === 0) throw new BlockEditError(`no heading reads "${wanted}"${level === undefined ? "" : ` at level ${level}`}`);
  if (starts.length > 1) throw new BlockEditError(`${starts.length} headings read "${wanted}"; give level, or edit by block id`);
  const start = starts[0]!;
  const own = headingLevel(blocks[start]!)!;
  let end = start + 1;
  while (end < blocks.length) {
    const next = headingLevel(blocks[end]!);
    if (next !== null && next <= own) break;
    end += 1;
  }
  return { start, end };
}

/** Text runs of one inline-content list: plain text items, each changed only where a match touches it. */
type Run = { text: string; item: Record<string, unknown> | string };

/**
 * Replaces every occurrence of `find` within one inline-content list, matching
 * across adjacent styled text (a replacement takes the style of the text where
 * its match starts); links are matched inside their own text. Returns the new
 * list (the same list when nothing matched) and how many matches there were.
 */
function replaceInInline(content: unknown, find: string, replace: string): { content: unknown; count: number } {
  if (typeof content === "string") {
    const count = content.split(find).length - 1;
    return { content: count === 0 ? content : content.split(find).join(replace), count };
  }
  if (!Array.isArray(content)) return { content, count: 0 };
  let count = 0;
  const out: unknown[] = [];
  let runs: Run[] = [];
  const flush = () => {
    if (runs.length === 0) return;
    const replaced = replaceInRuns(runs, find, replace);
    count += replaced.count;
    out.push(...replaced.items);
    runs = [];
  };
  for (const item of content) {
    if (typeof item === "string") runs.push({ text: item, item });
    else if (isRecord(item) && item.type === "text" && typeof item.text === "string") runs.push({ text: item.text, item });
    else {
      flush();
      if (isRecord(item) && item.content !== undefined) {
        const inner = replaceInInline(item.content, find, replace);
        count += inner.count;
        out.push(inner.count === 0 ? item : { ...item, content: inner.content });
      } else out.push(item);
    }
  }
  flush();
  return { content: count === 0 ? content : out, count };
}

function replaceInRuns(runs: readonly Run[], find: string, replace: string): { items: unknown[]; count: number } {
  const whole = runs.map((run) => run.text).join("");
  const matches: number[] = [];
  for (let at = whole.indexOf(find); at !== -1; at = whole.indexOf(find, at + find.length)) matches.push(at);
  if (matches.length === 0) return { items: runs.map((run) => run.item), count: 0 };
  // Each run keeps its text outside the matches, and gains the replacement of each match that starts in it.
  let first = 0;
  let offset = 0;
  const texts = runs.map((run) => {
    const start = offset;
    const end = offset + run.text.length;
    offset = end;
    while (first < matches.length && matches[first]! + find.length <= start) first += 1;
    let text = "";
    let at = start;
    for (let k = first; k < matches.length && matches[k]! < end; k += 1) {
      const match = matches[k]!;
      if (match > at) text += whole.slice(at, match);
      if (match >= start) text += replace;
      at = Math.max(at, Math.min(match + find.length, end));
    }
    return text + whole.slice(at, end);
  });
  const items = runs.flatMap((run, r) => {
    const text = texts[r]!;
    if (text === run.text) return [run.item];
    if (text === "") return [];
    return [typeof run.item === "string" ? text : { ...run.item, text }];
  });
  return { items, count: matches.length };
}

/**
 * Replaces `find` with `replace` in the inline text of every block (nested
 * children and table cells included). Returns the new body and the number of
 * matches; blocks without a match are the same objects.
 */
export function replaceText(blocks: readonly Block[], find: string, replace: string): { blocks: Block[]; count: number } {
  let count = 0;
  const visit = (block: Block): Block => {
    let changed: Block = block;
    const content = block.content;
    if (isRecord(content) && content.type === "tableContent" && Array.isArray(content.rows)) {
      let tableCount = 0;
      const rows = content.rows.map((row: unknown) => {
        if (!isRecord(row) || !Array.isArray(row.cells)) return row;
        let rowCount = 0;
        const cells = row.cells.map((cell: unknown) => {
          const inline = isRecord(cell) && cell.type === "tableCell" ? cell.content : cell;
          const replaced = replaceInInline(inline, find, replace);
          rowCount += replaced.count;
          if (replaced.count === 0) return cell;
          return isRecord(cell) && cell.type === "tableCell" ? { ...cell, content: replaced.content } : replaced.content;
        });
        tableCount += rowCount;
        return rowCount === 0 ? row : { ...row, cells };
      });
      if (tableCount > 0) {
        count += tableCount;
        changed = { ...changed, content: { ...content, rows } };
      }
    } else if (content !== undefined) {
      const replaced = replaceInInline(content, find, replace);
      if (replaced.count > 0) {
        count += replaced.count;
        changed = { ...changed, content: replaced.content };
      }
    }
    if (Array.isArray(block.children)) {
      const children = block.children.map((child: unknown) => (isRecord(child) ? visit(child) : child));
      if (children.some((child, i) => child !== (block.children as unknown[])[i])) changed = { ...changed, children };
    }
    return changed;
  };
  const result = blocks.map(visit);
  return { blocks: result, count };
}

/** The body as a compact outline of blocks with their ids, for targeted edits by id. */
function blockOutline(content: unknown): TBlockOutline[] {
  const visit = (block: Block): TBlockOutline => {
    const level = headingLevel(block);
    const children = childrenOf(block).map(visit);
    return {
      id: typeof block.id === "string" ? block.id : null,
      type: typeof block.type === "string" ? block.type : "unknown",
      text: contentToText({ ...block, children: [] }),
      ...(level === null ? {} : { level }),
      ...(children.length > 0 ? { children } : {}),
    };
  };
  return blocksOf(content).map(visit);
}

/** A note as its block outline (GET ?format=blocks, get_note format "blocks"), with the version edits may be conditional on. */
export async function getNoteBlocksOrThrow(
  db: Db,
  { id, userId }: { id: string; userId: string },
): Promise<{ body: TNoteBlocksResponse; version: number }> {
  const { note, version } = await getNoteOrThrow(db, { id, userId });
  return { body: { note: { id: note.id, title: note.title, updatedAt: note.updatedAt, tags: note.tags }, blocks: blockOutline(bodyBlocks(note.content, note.contentText)) }, version };
}
