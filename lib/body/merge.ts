/**
 * Three-way merge of a note's body, block by block, for an editor that learns
 * of a write made elsewhere (an agent, another tab) while the person types.
 * `base` is the body as last saved or loaded here, `mine` what is on screen,
 * `theirs` the body saved elsewhere since. Blocks are matched by id:
 *
 * - a block only they changed takes their version; one only the person
 *   changed keeps the person's; one both changed keeps the person's and is a
 *   conflict, their version kept beside it for the person to pick;
 * - blocks they added are placed after the block they follow in their
 *   version; blocks they deleted go, unless the person changed them
 *   (a conflict); a block they changed that the person deleted is a conflict;
 * - their moves apply where the person did not reorder the same blocks.
 *
 * The answer is a list of operations on `mine` (so an editor applies them
 * without touching the block being typed in, and keeps the cursor), the
 * conflicts, and the merged body. Null when the bodies cannot be matched
 * block by block (a block without an id, an id twice, a block that moved
 * into one they added): the caller falls back to asking the person.
 *
 * Pure, shared by the browser editor and its tests.
 */

export type MergeBlock = { id: string; type: string; props?: Record<string, unknown>; content?: unknown; children?: MergeBlock[] };
/** A block's own part: what `update` replaces (its children stay). */
export type BlockSelf = Pick<MergeBlock, "type" | "props" | "content">;
/** Where a block goes: after a sibling, or first among a parent's children (null: first in the note). */
export type BlockPlace = { after: string } | { first: string | null };

export type BlockOp =
  | { op: "update"; id: string; block: BlockSelf }
  | { op: "remove"; id: string }
  | { op: "insert"; block: MergeBlock; place: BlockPlace }
  | { op: "move"; id: string; place: BlockPlace };

export type BlockConflict =
  /** Both changed the block: the person's version stays, theirs is offered. */
  | { kind: "both"; id: string; mine: MergeBlock; theirs: MergeBlock }
  /** They deleted a block the person changed: it stays, deleting it is offered. */
  | { kind: "theirs_deleted"; id: string; mine: MergeBlock }
  /** The person deleted a block they changed: it stays deleted, bringing theirs back is offered (at the first place that still exists). */
  | { kind: "mine_deleted"; id: string; theirs: MergeBlock; places: BlockPlace[] };

export type BodyMerge = { ops: BlockOp[]; conflicts: BlockConflict[]; merged: MergeBlock[] };

/** Each block type's default props: a prop at its default equals a prop left out. */
export type PropDefaults = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The default props of each block type of a BlockNote schema (`schema.blockSchema`). */
export function propDefaultsOf(blockSchema: Readonly<Record<string, { propSchema: Readonly<Record<string, { default?: unknown }>> }>>): PropDefaults {
  return Object.fromEntries(
    Object.entries(blockSchema).map(([type, config]) => [type, Object.fromEntries(Object.entries(config.propSchema).map(([prop, value]) => [prop, value.default]))]),
  );
}

type Node = { block: MergeBlock; parent: string | null };
type Index = { nodes: Map<string, Node>; lists: Map<string | null, string[]> };

// Bodies deeper than this are not merged (the caller asks the person instead).
const MAX_DEPTH = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Blocks by id with their parent, and each parent's children in order; null when a block has no id or an id appears twice. */
function indexBody(body: unknown): Index | null {
  const index: Index = { nodes: new Map(), lists: new Map() };
  const walk = (blocks: unknown, parent: string | null, depth: number): boolean => {
    if (blocks === undefined) return true;
    if (!Array.isArray(blocks) || depth > MAX_DEPTH) return false;
    const ids: string[] = [];
    for (const block of blocks) {
      if (!isRecord(block) || typeof block.id !== "string" || !block.id || typeof block.type !== "string" || index.nodes.has(block.id)) return false;
      index.nodes.set(block.id, { block: block as MergeBlock, parent });
      ids.push(block.id);
      if (!walk(block.children, block.id, depth + 1)) return false;
    }
    index.lists.set(parent, ids);
    return true;
  };
  return walk(body ?? [], null, 0) ? index : null;
}

/** JSON with object keys sorted, so two spellings of one value compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Inline content in one spelling: strings as styled text, neighbouring runs of one style joined, empty runs dropped. */
function canonicalInline(content: unknown): unknown {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content, styles: {} }] : [];
  if (!Array.isArray(content)) return content;
  const runs: Record<string, unknown>[] = [];
  for (const item of content) {
    const run: Record<string, unknown> =
      typeof item === "string"
        ? { type: "text", text: item, styles: {} }
        : isRecord(item) && item.type === "text"
          ? { ...item, styles: item.styles ?? {} }
          : isRecord(item) && item.type === "link"
            ? { ...item, content: canonicalInline(item.content) }
            : (item as Record<string, unknown>);
    if (run.type === "text" && run.text === "") continue;
    const last = runs[runs.length - 1];
    if (last && run.type === "text" && last.type === "text" && stableJson(last.styles) === stableJson(run.styles)) {
      runs[runs.length - 1] = { ...last, text: `${String(last.text)}${String(run.text)}` };
    } else runs.push(run);
  }
  return runs;
}

function selfKey(block: MergeBlock, defaults: PropDefaults): string {
  const typeDefaults = defaults[block.type] ?? {};
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block.props ?? {})) {
    if (value !== undefined && stableJson(value) !== stableJson(typeDefaults[key])) props[key] = value;
  }
  return stableJson([block.type, props, canonicalInline(block.content)]);
}

export function selfOf(block: MergeBlock): BlockSelf {
  const self: BlockSelf = { type: block.type };
  if (block.props !== undefined) self.props = block.props;
  if (block.content !== undefined) self.content = block.content;
  return self;
}

/** Indexes of a longest increasing subsequence of `values`. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i += 1) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]!]! < values[i]!) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  }
  const kept = new Set<number>();
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = previous[i]!) kept.add(i);
  return kept;
}

export function mergeBody(base: unknown, mine: unknown, theirs: unknown, defaults: PropDefaults): BodyMerge | null {
  const [b, m, t] = [indexBody(base), indexBody(mine), indexBody(theirs)];
  if (!b || !m || !t) return null;
  const same = (x: MergeBlock, y: MergeBlock) => selfKey(x, defaults) === selfKey(y, defaults);
  const sameTree = (x: MergeBlock, y: MergeBlock): boolean => {
    const [xs, ys] = [x.children ?? [], y.children ?? []];
    return same(x, y) && xs.length === ys.length && xs.every((child, i) => child.id === ys[i]!.id && sameTree(child, ys[i]!));
  };
  const ops: BlockOp[] = [];
  const conflicts: BlockConflict[] = [];

  // A block's own part, where all three have it.
  for (const [id, theirsNode] of t.nodes) {
    const [baseNode, mineNode] = [b.nodes.get(id), m.nodes.get(id)];
    if (!baseNode || !mineNode || same(theirsNode.block, baseNode.block) || same(mineNode.block, theirsNode.block)) continue;
    if (same(mineNode.block, baseNode.block)) ops.push({ op: "update", id, block: selfOf(theirsNode.block) });
    else conflicts.push({ kind: "both", id, mine: mineNode.block, theirs: theirsNode.block });
  }

  // Deleted on one side (in document order, so a deleted parent decides for its children).
  const decided = new Set<string>();
  for (const [id, baseNode] of b.nodes) {
    if (baseNode.parent !== null && decided.has(baseNode.parent)) {
      decided.add(id);
      continue;
    }
    const [mineNode, theirsNode] = [m.nodes.get(id), t.nodes.get(id)];
    if (mineNode && !theirsNode) {
      decided.add(id);
      if (sameTree(mineNode.block, baseNode.block)) ops.push({ op: "remove", id });
      else conflicts.push({ kind: "theirs_deleted", id, mine: mineNode.block });
    } else if (!mineNode && theirsNode) {
      decided.add(id);
      if (!sameTree(theirsNode.block, baseNode.block)) {
        const siblings = t.lists.get(theirsNode.parent) ?? [];
        const before = siblings.slice(0, siblings.indexOf(id)).reverse();
        conflicts.push({ kind: "mine_deleted", id, theirs: theirsNode.block, places: [...before.map((after) => ({ after })), { first: theirsNode.parent }] });
      }
    }
  }

  // Blocks they added or moved, list by list in their order, each placed after the one before it that is there.
  for (const [parent, list] of t.lists) {
    if (parent !== null && !m.nodes.has(parent)) continue; // inside a block they added: it comes with it
    const inMineHere = (id: string) => m.nodes.get(id)?.parent === parent;
    const common = list.filter((id) => b.nodes.get(id)?.parent === parent && inMineHere(id));
    // Each common block's index in their order (maps, not indexOf: a note can have thousands of blocks).
    const commonIndex = new Map(common.map((id, index) => [id, index]));
    const mineOrder = (m.lists.get(parent) ?? []).filter((id) => commonIndex.has(id));
    const baseOrder = (b.lists.get(parent) ?? []).filter((id) => commonIndex.has(id));
    // Their reordering applies where the person kept the order; the longest run already in order stays put.
    const reordered = mineOrder.join() === baseOrder.join() && common.join() !== baseOrder.join();
    const mineIndex = new Map(mineOrder.map((id, index) => [id, index]));
    const staying = reordered ? longestIncreasing(common.map((id) => mineIndex.get(id)!)) : null;
    let previous: string | null = null;
    for (const id of list) {
      const place: BlockPlace = previous === null ? { first: parent } : { after: previous };
      const [baseNode, mineNode] = [b.nodes.get(id), m.nodes.get(id)];
      if (!baseNode && !mineNode) {
        const added = t.nodes.get(id)!.block;
        const clash = (block: MergeBlock): boolean => m.nodes.has(block.id) || (block.children ?? []).some(clash);
        if (clash(added)) return null;
        ops.push({ op: "insert", block: added, place });
        previous = id;
      } else if (mineNode) {
        const movedHere = baseNode !== undefined && baseNode.parent !== parent && mineNode.parent === baseNode.parent;
        const at = commonIndex.get(id);
        const movedWithin = staying !== null && at !== undefined && !staying.has(at);
        if (movedHere || movedWithin) ops.push({ op: "move", id, place });
        if (movedHere || mineNode.parent === parent) previous = id;
      }
    }
  }

  const merged = applyBlockOps(Array.isArray(mine) ? (mine as MergeBlock[]) : [], ops);
  return merged ? { ops, conflicts, merged } : null;
}

type Path = { list: MergeBlock[]; index: number };

function find(blocks: MergeBlock[], id: string): Path | null {
  for (let index = 0; index < blocks.length; index += 1) {
    const block = blocks[index]!;
    if (block.id === id) return { list: blocks, index };
    const inner = block.children ? find(block.children, id) : null;
    if (inner) return inner;
  }
  return null;
}

/** Copies every list on the way, so the caller's blocks are never changed. */
function cloneTree(blocks: readonly MergeBlock[]): MergeBlock[] {
  return blocks.map((block) => (block.children ? { ...block, children: cloneTree(block.children) } : { ...block }));
}

function place(blocks: MergeBlock[], block: MergeBlock, where: BlockPlace): boolean {
  if ("after" in where) {
    const at = find(blocks, where.after);
    if (!at) return false;
    at.list.splice(at.index + 1, 0, block);
    return true;
  }
  if (where.first === null) {
    blocks.unshift(block);
    return true;
  }
  const parent = find(blocks, where.first);
  if (!parent) return false;
  const owner = parent.list[parent.index]!;
  owner.children = [block, ...(owner.children ?? [])];
  return true;
}

/** `ops` applied to a copy of `blocks`, as an editor applies them; null when one names a block that is not there. */
export function applyBlockOps(blocks: readonly MergeBlock[], ops: readonly BlockOp[]): MergeBlock[] | null {
  const doc = cloneTree(blocks);
  for (const op of ops) {
    if (op.op === "insert") {
      if (!place(doc, cloneTree([op.block])[0]!, op.place)) return null;
      continue;
    }
    const at = find(doc, op.id);
    if (!at) return null;
    if (op.op === "update") at.list[at.index] = { ...at.list[at.index]!, ...op.block };
    else {
      const [removed] = at.list.splice(at.index, 1);
      if (op.op === "move" && !place(doc, removed!, op.place)) return null;
    }
  }
  return indexBody(doc) ? doc : null;
}
