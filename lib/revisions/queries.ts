import type { Db } from "@/lib/db/client";
import { contentToText } from "@/lib/body/content-text";
import { bodyBlocks } from "@/lib/body/document";
import { contentToMarkdown, noteMarkdown } from "@/lib/body/markdown";
import { AppError, noteNotFound } from "@/lib/errors";
import { SETTINGS_SELECT, settingsOf, type RecordedSettings } from "@/lib/notes/settings";
import { serializeTag, TAG_SELECT } from "@/lib/tags/serialize";
import { revisionChange, type RevisionChange } from "@/lib/revisions/diff";
import type { TListRevisionsQuery, TRevision, TRevisionAuthor, TRevisionList, TRevisionSummary } from "@/lib/revisions/schemas";

const SUMMARY_SELECT = {
  id: true,
  noteId: true,
  version: true,
  authorKind: true,
  authorEmail: true,
  authorAgent: true,
  restoredFrom: true,
  title: true,
  tagIds: true,
  ...SETTINGS_SELECT,
  createdAt: true,
  updatedAt: true,
} as const;

type SummaryRow = {
  id: string;
  noteId: string;
  version: number;
  authorKind: string;
  authorEmail: string | null;
  authorAgent: string | null;
  restoredFrom: number | null;
  title: string;
  tagIds: string[];
  createdAt: Date;
  updatedAt: Date;
} & RecordedSettings;

/** A revision in its wire form, and every tag id it recorded (for a restore, which keeps those that still exist). */
export type StoredRevision = { revision: TRevision; tagIds: string[] };

const revisionNotFound = () => new AppError("REVISION_NOT_FOUND");

/** History is read through its note: a note that is not the user's, or is in the trash, has none to show. */
async function assertNoteExists(db: Db, { noteId, userId }: { noteId: string; userId: string }): Promise<void> {
  if (!(await db.note.findFirst({ where: { id: noteId, userId }, select: { id: true } }))) throw noteNotFound();
}

function serializeAuthor(row: SummaryRow): TRevisionAuthor {
  return {
    kind: row.authorKind as TRevisionAuthor["kind"],
    email: row.authorEmail,
    ...(row.authorAgent ? { agent: row.authorAgent } : {}),
  };
}

/** Revisions in their wire form, with the tags of theirs that still exist (by name, as on a note). */
async function serializeRevisions(db: Db, userId: string, rows: SummaryRow[]): Promise<TRevisionSummary[]> {
  const tagIds = [...new Set(rows.flatMap((row) => row.tagIds))];
  const tags = tagIds.length === 0 ? [] : await db.tag.findMany({ where: { userId, id: { in: tagIds } }, select: TAG_SELECT, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return rows.map((row) => {
    const own = new Set(row.tagIds);
    return {
      id: row.id,
      noteId: row.noteId,
      version: row.version,
      author: serializeAuthor(row),
      ...(row.restoredFrom === null ? {} : { restoredFrom: row.restoredFrom }),
      title: row.title,
      tags: tags.filter((tag) => own.has(tag.id)).map(serializeTag),
      ...settingsOf(row),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** A page of a note's history, newest first (the first is the note as it is now). 404 for a note that is not the user's. */
export async function listRevisions(
  db: Db,
  { noteId, userId, limit, cursor }: TListRevisionsQuery & { noteId: string; userId: string },
): Promise<TRevisionList> {
  await assertNoteExists(db, { noteId, userId });
  const rows = await db.noteRevision.findMany({
    where: { noteId, userId, ...(cursor === undefined ? {} : { version: { lt: cursor } }) },
    orderBy: { version: "desc" },
    // One row past the page tells whether a next page exists.
    take: limit + 1,
    select: SUMMARY_SELECT,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    revisions: await serializeRevisions(db, userId, page),
    ...(rows.length > limit && last ? { nextCursor: String(last.version) } : {}),
  };
}

type ChainRow = {
  version: number;
  keyframe: boolean;
  keep_head: number;
  keep_tail: number;
  blocks: unknown;
  same_content: boolean;
  content_text: string | null;
  text_keep_head: number | null;
  text_keep_tail: number | null;
};

const corruptHistory = (noteId: string, version: number, what: string) =>
  new Error(`The history of note ${noteId} cannot be read at version ${version}: ${what}`);

type ContentState = { content: unknown; contentText: string };

/**
 * The note's content and text at each revision from `from` to `to`: the
 * keyframe at or before `from`, then each later change (of the blocks: the
 * kept leading and trailing blocks of the one before, the change's blocks
 * between; of the text: the kept leading and trailing characters, the
 * change's text between). At most note_revision_max_depth() changes follow a
 * keyframe. A revision recorded before text was kept beside blocks has none:
 * its text is derived from its blocks, and no later change builds on it (see
 * the revision policy, prisma/definitions/note_revisions.sql).
 */
async function statesBetween(db: Db, { noteId, from, to }: { noteId: string; from: number; to: number }): Promise<Map<number, ContentState>> {
  const chain = await db.$queryRaw<ChainRow[]>`
    SELECT version, keyframe, keep_head, keep_tail, blocks, blocks IS NULL AS same_content, content_text, text_keep_head, text_keep_tail FROM note_revisions
    WHERE note_id = ${noteId}::uuid AND version <= ${to}
      AND version >= (SELECT max(version) FROM note_revisions WHERE note_id = ${noteId}::uuid AND version <= ${from} AND keyframe)
    ORDER BY version`;
  const states = new Map<number, ContentState>();
  let content: unknown = [];
  // Null: derived from the content (an older revision's).
  let text: string | null = null;
  for (const change of chain) {
    if (change.keyframe) content = change.blocks;
    else if (!change.same_content) {
      if (!Array.isArray(content)) throw corruptHistory(noteId, change.version, "a change of blocks follows a content that is not a list of blocks");
      content = [...content.slice(0, change.keep_head), ...(change.blocks as unknown[]), ...content.slice(content.length - change.keep_tail)];
    }
    if (change.keyframe || change.text_keep_head === null || change.text_keep_tail === null) text = change.content_text;
    else if (change.text_keep_head + change.text_keep_tail === 0) text = change.content_text ?? "";
    else {
      if (text === null) throw corruptHistory(noteId, change.version, "a change of text follows a text that was not kept");
      text = spliceCodePoints(text, change.text_keep_head, change.text_keep_tail, change.content_text ?? "");
    }
    if (change.version >= from) states.set(change.version, { content, contentText: text ?? contentToText(content) });
  }
  return states;
}

/** The note's content and text at the revision of `version`. */
async function stateAt(db: Db, { noteId, version }: { noteId: string; version: number }): Promise<ContentState> {
  const state = (await statesBetween(db, { noteId, from: version, to: version })).get(version);
  if (!state) throw corruptHistory(noteId, version, "no revision has this version");
  return state;
}

/** How a revision differs from the one before it, and for a restore, when the version it put back was written. */
export type RevisionChangeInfo = { change: RevisionChange; restoredFrom?: { version: number; at: string; authorKind: string } };

/**
 * What changed in each of these revisions (a page of listRevisions) since the
 * revision before it, for the history panel: read in one pass over the
 * history from the revision before the oldest of them.
 */
export async function listRevisionChanges(
  db: Db,
  { noteId, userId, revisions }: { noteId: string; userId: string; revisions: TRevisionSummary[] },
): Promise<Record<string, RevisionChangeInfo>> {
  if (revisions.length === 0) return {};
  const versions = revisions.map((revision) => revision.version);
  const oldest = Math.min(...versions);
  const newest = Math.max(...versions);
  const previous = await db.noteRevision.findFirst({ where: { noteId, userId, version: { lt: oldest } }, orderBy: { version: "desc" }, select: { version: true } });
  const from = previous?.version ?? oldest;
  const rows = await db.noteRevision.findMany({
    where: { noteId, userId, version: { gte: from, lte: newest } },
    orderBy: { version: "asc" },
    select: { id: true, version: true, title: true, tagIds: true, ...SETTINGS_SELECT, restoredFrom: true },
  });
  const states = await statesBetween(db, { noteId, from, to: newest });
  const restoredVersions = [...new Set(rows.flatMap((row) => (row.restoredFrom === null ? [] : [row.restoredFrom])))];
  const restoredRows =
    restoredVersions.length === 0
      ? []
      : await db.noteRevision.findMany({ where: { noteId, userId, version: { in: restoredVersions } }, select: { version: true, updatedAt: true, authorKind: true } });
  const restoredTimes = new Map(restoredRows.map((row) => [row.version, { at: row.updatedAt.toISOString(), authorKind: row.authorKind }]));
  const changes: Record<string, RevisionChangeInfo> = {};
  let before: (ContentState & { title: string; tagIds: string[] } & RecordedSettings) | null = null;
  for (const row of rows) {
    const state = states.get(row.version);
    if (!state) throw corruptHistory(noteId, row.version, "its content could not be read");
    const after = { ...state, title: row.title, tagIds: row.tagIds, ...settingsOf(row) };
    if (row.version >= oldest) {
      const restored = row.restoredFrom === null ? undefined : restoredTimes.get(row.restoredFrom);
      changes[row.id] = {
        change: revisionChange(before, after),
        ...(row.restoredFrom === null || restored === undefined ? {} : { restoredFrom: { version: row.restoredFrom, ...restored } }),
      };
    }
    before = after;
  }
  return changes;
}

/**
 * `before` with all but its first `head` and last `tail` characters replaced
 * by `middle`. Characters are code points, as PostgreSQL counts them when it
 * records the change (a JavaScript string counts UTF-16 units).
 */
function spliceCodePoints(before: string, head: number, tail: number, middle: string): string {
  let start = 0;
  for (let kept = 0; kept < head; kept += 1) {
    if (start >= before.length) throw new Error(`A text change keeps ${head} leading characters of a shorter text`);
    start += isSurrogatePair(before, start) ? 2 : 1;
  }
  let end = before.length;
  for (let kept = 0; kept < tail; kept += 1) {
    if (end <= start) throw new Error(`A text change keeps ${head} + ${tail} characters of a shorter text`);
    end -= end >= 2 && isSurrogatePair(before, end - 2) ? 2 : 1;
  }
  return before.slice(0, start) + middle + before.slice(end);
}

function isSurrogatePair(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  const low = text.charCodeAt(index + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** One revision with the note's content and text at it. 404 when the note or the revision is not the user's. */
export async function getRevisionOrThrow(
  db: Db,
  { noteId, revisionId, userId }: { noteId: string; revisionId: string; userId: string },
): Promise<StoredRevision> {
  await assertNoteExists(db, { noteId, userId });
  const row = await db.noteRevision.findFirst({ where: { id: revisionId, noteId, userId }, select: SUMMARY_SELECT });
  if (!row) throw revisionNotFound();
  const { content, contentText } = await stateAt(db, { noteId, version: row.version });
  const [summary] = await serializeRevisions(db, userId, [row]);
  return { revision: { ...summary!, content, contentText }, tagIds: row.tagIds };
}

/**
 * A revision as one Markdown document, title first. An old state has no
 * stored Markdown: it is rendered in the conversion pool under its budget; a
 * body that is not BlockNote JSON reads as its text.
 */
export async function revisionMarkdown(revision: TRevision): Promise<string> {
  return noteMarkdown(revision.title, (await contentToMarkdown(bodyBlocks(revision.content, revision.contentText))) ?? revision.contentText);
}
