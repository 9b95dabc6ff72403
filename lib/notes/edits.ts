import { Prisma, queryRows, type Db, type DbClient } from "@/lib/db/client";
import { ownedRow } from "@/lib/db/owner";
import { accountWrite, writeTransaction } from "@/lib/db/transaction";
import { contentLimitViolation } from "@/lib/body/content-limits";
import { bodyBlocks } from "@/lib/body/document";
import { contentToText } from "@/lib/body/content-text";
import { contentToMarkdown, convertMarkdownBody, MarkdownConversionError } from "@/lib/body/markdown";
import { AppError, fieldDetails } from "@/lib/errors";
import {
  assertBlockChange,
  assertBlocks,
  BlockEditError,
  blocksOf,
  changedBlock,
  deleteBlock,
  findSection,
  InvalidBlockError,
  moveBlock,
  replaceText,
  updateBlock,
  withFreshIds,
  type Block,
} from "@/lib/notes/blocks";
import type { RevisionAuthor } from "@/lib/db/author";
import { declareKnownChange, keptBlocks, keptText } from "@/lib/notes/known-change";
import { type ResolvedBody } from "@/lib/notes/body";
import { lockNoteAtVersion, writeNoteUpdate, type VersionedNote } from "@/lib/notes/mutations";
import type { TEditOperation, TUpdateNote } from "@/lib/notes/schemas";

export type EditNoteOptions = {
  id: string;
  userId: string;
  operations: TEditOperation[];
  /** Apply only if the note is still at this version (If-Match); otherwise 412 with the current note. Relative edits need none. */
  ifVersion?: number;
  /** Who edits: recorded in the revision the edit makes. */
  author?: RevisionAuthor;
};

/** An operation with its Markdown already converted to blocks. */
type Prepared = { op: TEditOperation; blocks?: Block[] };

/** The note's fields the operations read. */
type NoteState = { title: string; content: unknown; contentText: string; tagIds: string[] };

/** What applying the operations changed, as the update path takes it. */
type Change = Pick<ResolvedBody<TUpdateNote>, "title" | "content" | "contentText" | "tagIds">;

const editFailed = (index: number, op: TEditOperation, reason: string, fields: Record<string, unknown> = {}) =>
  new AppError("EDIT_FAILED", { args: [`operations[${index}] (${op.op}): ${reason}`], fields: { operation: index, ...fields } });

/**
 * Blocks (or a block's type, props, content) the note schema does not hold:
 * bad input, so the contract's 400 for a body that fails the schema, its
 * details naming the operation and the path within it.
 */
const invalidBlock = (index: number, op: TEditOperation, err: InvalidBlockError) =>
  new AppError("INVALID_BODY", { fields: fieldDetails({ [`operations.${index}.${err.field}`]: [`operations[${index}] (${op.op}): ${err.message}`] }) });

/**
 * What an operation gives as blocks, checked against the note schema before
 * anything is read: blocks to insert, update_block's children, and its type
 * (with the props and content given for it). Props and content given without
 * a type are checked against the block's own type when the edit applies.
 */
function assertOperationBlocks(op: TEditOperation): void {
  if ("blocks" in op && op.blocks !== undefined) assertBlocks(op.blocks, "blocks");
  if (op.op !== "update_block") return;
  assertBlockChange({ type: op.type, props: op.props, content: op.content });
  if (op.children !== undefined) assertBlocks(op.children, "children");
}

/**
 * Applies a list of operations (append, replace_text, sections, blocks by id,
 * title, tags) to a note, all or nothing: the first that cannot apply fails
 * the edit with a 409 naming it, and nothing is written. Blocks, types, props
 * and content the note schema does not hold are bad input: a 400 naming the
 * operation and the path (lib/body/block-shape.ts), nothing written. The
 * operations apply to the note as it is when the edit runs, so edits from
 * many clients at once all land (none needs If-Match); with `ifVersion`, only
 * at that version.
 * Blocks the operations do not touch are written back exactly as stored.
 *
 * Markdown in the operations is converted, and the edited note's Markdown
 * rendered, in the conversion pool before the transaction opens (the worker
 * writes the Markdown of the blocks that changed only: lib/body/markdown-blocks.ts).
 * The transaction locks the note's row and applies the operations again only
 * if a write came in since; that note's Markdown is then rendered by its first
 * Markdown read.
 */
export async function editNote(db: Db, options: EditNoteOptions): Promise<VersionedNote> {
  // Invalid blocks fail before the edit waits its turn.
  assertOperations(options.operations);
  return accountWrite(db, options.userId, () => editInTurn(db, options));
}

async function editInTurn(db: Db, { id, userId, operations, ifVersion, author }: EditNoteOptions): Promise<VersionedNote> {
  const prepared = await prepareOperations(operations);
  const before = await readState(db, { id, userId });
  // A stale ifVersion or a missing note fails in the transaction, without converting anything.
  const early = before && (ifVersion === undefined || before.version === ifVersion) ? applyOperations(before, prepared) : undefined;
  const earlyMarkdown = early?.content !== undefined ? await contentToMarkdown(early.content) : undefined;
  return writeTransaction(
    db,
    async (tx) => {
      const version = await lockNoteAtVersion(tx, { id, userId, ifVersion });
      // Unless written since it was read: then apply to the note as it is now, under the lock.
      const current = before && early && version === before.version ? before : (await readState(tx, { id, userId }))!;
      const change = current === before && early ? early : applyOperations(current, prepared);
      // The blocks and text the operations left alone, for the revision this write records.
      const kept = Array.isArray(change.content) && Array.isArray(current.content) ? keptBlocks(current.content, change.content) : undefined;
      if (kept && !kept.same) {
        const text = keptText(current.contentText, change.contentText!);
        await declareKnownChange(tx, { noteId: id, version, keepHead: kept.head, keepTail: kept.tail, textKeepHead: text.head, textKeepTail: text.tail });
      }
      // New content's Markdown: rendered before the transaction, or, applied again to a newer note, by its first Markdown read.
      const derivedMarkdown = change.content === undefined ? undefined : change === early ? earlyMarkdown : null;
      // Blocks that changed are a new version: no need to compare the whole note with what is stored first.
      const changed = kept !== undefined && !kept.same;
      return writeNoteUpdate(tx, {
        id,
        userId,
        input: { ...change, derivedMarkdown },
        ifVersion: version,
        evenIfUnchanged: changed,
        // A changed block goes to the database alone; the row, locked at the version it was read at, has the rest.
        ...(changed ? { keptBlocks: { head: kept.head, tail: kept.tail, storedLength: (current.content as unknown[]).length } } : {}),
      });
    },
    // The account's write lock first: the change is numbered in its feed under it.
    { lockUserId: userId, author },
  );
}

async function readState(db: DbClient, { id, userId }: { id: string; userId: string }) {
  const [row] = await queryRows<{ title: string; content: Prisma.JsonValue; content_text: string; version: number; tag_ids: string[] }>(db, Prisma.sql`
    SELECT n.title, n.content, n.content_text, n.version,
      ARRAY(SELECT nt.tag_id::text FROM note_tags nt WHERE nt.note_id = n.id ORDER BY nt.tag_id) AS tag_ids
    FROM notes n WHERE ${ownedRow(id, userId, "n")}`);
  return row && { title: row.title, content: row.content, contentText: row.content_text, version: row.version, tagIds: row.tag_ids };
}

/** Each operation's blocks checked against the note schema: a 400 naming the first that fails. */
function assertOperations(operations: TEditOperation[]): void {
  operations.forEach((op, index) => {
    try {
      assertOperationBlocks(op);
    } catch (err) {
      if (err instanceof InvalidBlockError) throw invalidBlock(index, op, err);
      throw err;
    }
  });
}

/** Converts each operation's Markdown to blocks in the conversion pool; Markdown that cannot be converted is a 400 naming it. */
async function prepareOperations(operations: TEditOperation[]): Promise<Prepared[]> {
  return Promise.all(
    operations.map(async (op, index): Promise<Prepared> => {
      if (!("markdown" in op) || op.markdown === undefined) return { op, blocks: "blocks" in op ? op.blocks : undefined };
      try {
        return { op, blocks: blocksOf((await convertMarkdownBody(op.markdown)).content) };
      } catch (err) {
        if (!(err instanceof MarkdownConversionError)) throw err;
        throw new AppError("INVALID_BODY", { fields: fieldDetails({ [`operations.${index}.markdown`]: [err.message] }) });
      }
    }),
  );
}

/** The operations applied in order, in memory. Throws EDIT_FAILED naming the first that cannot apply, INVALID_BODY the first that would make a block the schema does not hold. */
function applyOperations(note: NoteState, prepared: Prepared[]): Change {
  let title: string | undefined;
  let blocks: Block[] | undefined;
  let tagIds: string[] | undefined;
  prepared.forEach(({ op, blocks: given }, index) => {
    if (op.op === "set_title") {
      title = op.title;
      return;
    }
    if (op.op === "add_tags" || op.op === "remove_tags") {
      const set = new Set(tagIds ?? note.tagIds);
      for (const tagId of op.tagIds) {
        if (op.op === "add_tags") set.add(tagId.toLowerCase());
        else set.delete(tagId.toLowerCase());
      }
      tagIds = [...set];
      return;
    }
    if (blocks === undefined) {
      // A note given only its text is edited as its lines' paragraphs; a body that is not a list of blocks (any JSON the API stored) has none.
      const body = bodyBlocks(note.content, note.contentText);
      if (!Array.isArray(body)) throw editFailed(index, op, "the note's content is not a list of blocks");
      blocks = blocksOf(body);
    }
    try {
      blocks = applyToBlocks(blocks, op, given ?? [], index);
    } catch (err) {
      if (err instanceof BlockEditError) throw editFailed(index, op, err.message);
      if (err instanceof InvalidBlockError) throw invalidBlock(index, op, err);
      throw err;
    }
  });
  const change: Change = { title, tagIds };
  if (blocks !== undefined) {
    const violation = contentLimitViolation(blocks);
    if (violation) {
      throw new AppError("INVALID_BODY", { fields: fieldDetails({ operations: [violation] }) });
    }
    change.content = blocks;
    change.contentText = contentToText(blocks);
  }
  return change;
}

type BlockOperation = Exclude<TEditOperation, { op: "set_title" | "add_tags" | "remove_tags" }>;

function applyToBlocks(blocks: Block[], op: BlockOperation, given: Block[], index: number): Block[] {
  const fresh = () => withFreshIds(given, blocks);
  switch (op.op) {
    case "append":
      return [...blocks, ...fresh()];
    case "prepend":
      return [...fresh(), ...blocks];
    case "replace_text": {
      const replaced = replaceText(blocks, op.find, op.replace);
      if (replaced.count !== op.expectedCount) {
        const matches = (n: number) => `${n} ${n === 1 ? "match" : "matches"}`;
        throw editFailed(index, op, `expected ${matches(op.expectedCount)} of the text, found ${replaced.count}; nothing was written`, {
          expectedCount: op.expectedCount,
          foundCount: replaced.count,
        });
      }
      return replaced.blocks;
    }
    case "replace_section": {
      const { start, end } = findSection(blocks, op.heading, op.level);
      const from = op.keepHeading ? start + 1 : start;
      // Ids of the blocks replaced may be given again.
      const rest = [...blocks.slice(0, from), ...blocks.slice(end)];
      return [...blocks.slice(0, from), ...withFreshIds(given, rest), ...blocks.slice(end)];
    }
    case "insert_before_section": {
      const { start } = findSection(blocks, op.heading, op.level);
      return [...blocks.slice(0, start), ...fresh(), ...blocks.slice(start)];
    }
    case "insert_after_section": {
      const { end } = findSection(blocks, op.heading, op.level);
      return [...blocks.slice(0, end), ...fresh(), ...blocks.slice(end)];
    }
    case "update_block":
      return updateBlock(blocks, op.blockId, (block) => ({
        ...changedBlock(block, { type: op.type, props: op.props, content: op.content }),
        // Ids of the children replaced may be given again.
        ...(op.children === undefined ? {} : { children: withFreshIds(op.children, updateBlock(blocks, op.blockId, (own) => ({ ...own, children: [] }))) }),
      }));
    case "move_block":
      return moveBlock(blocks, op.blockId, op.to ? { to: op.to } : op.before ? { before: op.before } : { after: op.after! });
    case "delete_block":
      return deleteBlock(blocks, op.blockId);
  }
}
