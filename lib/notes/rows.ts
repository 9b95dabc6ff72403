import { AGENT_AUTHOR_KINDS } from "@/lib/db/author";
import type { Db } from "@/lib/db/client";
import { ownedBy } from "@/lib/db/owner";
import { previewText } from "@/lib/body/content-text";
import { noteExcerpt, type ExcerptPart } from "@/lib/notes/excerpt";
import { listNotes, type ListNotesOptions } from "@/lib/notes/queries";
import type { TNote } from "@/lib/notes/schemas";
import { highlightNotes, type NoteHighlight } from "@/lib/notes/snippet";

/** What a list shows of a note: text only, small enough to send to the browser whatever the note's size. */
export type NoteRow = {
  id: string;
  /** The title, its search matches marked. */
  title: ExcerptPart[];
  /** The start of its text, or with a search the text around the first match, matches marked. */
  excerpt: ExcerptPart[];
  tags: { id: string; name: string }[];
  updatedAt: string;
  /** An agent (REST or MCP) changed it last. */
  agent: boolean;
};

/** A note as a row, given its search highlight (if any) and whether an agent changed it last. */
function toNoteRow(note: TNote, highlight: NoteHighlight | undefined, agent: boolean): NoteRow {
  return {
    id: note.id,
    title: highlight ? highlight.title : [{ text: note.title, match: false }],
    excerpt: highlight ? highlight.snippet : noteExcerpt(previewText(note.content, note.contentText)),
    tags: note.tags.map((tag) => ({ id: tag.id, name: tag.name })),
    updatedAt: note.updatedAt,
    agent,
  };
}

/** What every list of notes shows: the pinned notes first, then the rest (paged), under the same filters, as rows, each group with its total. */
export type NoteRowGroups = { pinned: NoteRow[]; pinnedTotal: number; others: NoteRow[]; othersTotal: number };

/**
 * The list as the notes page and the list beside an open note show it: up
 * to `pinnedLimit` pinned notes (0: only their count, for a later page), then
 * a page of the rest, under the same search (best matches first), tag and
 * order.
 */
export async function listNoteRowGroups(
  db: Db,
  { userId, search, tagId, sort, pinnedLimit, limit, offset }: Pick<ListNotesOptions, "userId" | "search" | "tagId" | "sort" | "limit" | "offset"> & { pinnedLimit: number },
): Promise<NoteRowGroups> {
  const filters = { userId, search, tagId, sort };
  const [pinned, others] = await Promise.all([
    listNotes(db, { ...filters, pinned: true, limit: Math.max(pinnedLimit, 1), offset: 0 }),
    listNotes(db, { ...filters, pinned: false, limit, offset }),
  ]);
  const [pinnedRows, otherRows] = await noteRows(db, { userId, groups: [pinned.notes.slice(0, pinnedLimit), others.notes], search });
  return { pinned: pinnedRows, pinnedTotal: pinned.total, others: otherRows, othersTotal: others.total };
}

/**
 * Groups of notes (pinned, the rest) as rows: with a search, titles and
 * text around the first match are marked; one query finds the notes an agent
 * changed last across every group.
 */
async function noteRows<const Groups extends readonly TNote[][]>(
  db: Db,
  { userId, groups, search }: { userId: string; groups: Groups; search?: string },
): Promise<{ [Group in keyof Groups]: NoteRow[] }> {
  const [highlights, agentChanged] = await Promise.all([
    Promise.all(groups.map((notes) => (search ? highlightNotes(db, notes, search) : undefined))),
    notesLastChangedByAgent(db, { userId, noteIds: groups.flat().map((note) => note.id) }),
  ]);
  const rows = groups.map((notes, group) => notes.map((note, index) => toNoteRow(note, highlights[group]?.[index], agentChanged.has(note.id))));
  return rows as { [Group in keyof Groups]: NoteRow[] };
}

/**
 * Which of these notes an agent (REST or MCP) changed last: the author kind of
 * each one's newest revision, for the notes list's marker.
 */
export async function notesLastChangedByAgent(db: Db, { userId, noteIds }: { userId: string; noteIds: string[] }): Promise<Set<string>> {
  if (noteIds.length === 0) return new Set();
  const rows = await db.$queryRaw<{ note_id: string; author_kind: string }[]>`
    SELECT DISTINCT ON (note_id) note_id::text, author_kind FROM note_revisions
    WHERE ${ownedBy(userId)} AND note_id = ANY(${noteIds}::uuid[])
    ORDER BY note_id, version DESC`;
  return new Set(rows.filter((row) => AGENT_AUTHOR_KINDS.has(row.author_kind)).map((row) => row.note_id));
}
