import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { ownedBy, ownedRow } from "@/lib/db/owner";
import { compactJson, isoTimestamp } from "@/lib/db/wire";
import { noteNotFound } from "@/lib/errors";
import { encodeCursor, type NoteCursor } from "@/lib/notes/cursor";
import type { TNote } from "@/lib/notes/schemas";
import { escapeLikePattern, MAX_INDEXED_TOKEN_LENGTH, MIN_TOKEN_TERM_LENGTH, searchTerms, termLength } from "@/lib/notes/search-tokens";
import { noteJsonSql } from "@/lib/notes/serialize";
import { highlightNotes, snippetHtml } from "@/lib/notes/snippet";

export type ListNotesOptions = {
  userId: string;
  /** Whitespace-separated terms, all of which must occur in the title or the text. */
  search?: string;
  /** With a search, "relevance" ranks the matches (see relevanceScore); otherwise, and by default, most recently updated first. */
  sort?: NoteSort;
  /** With a search, add each note's `snippet` (lib/notes/snippet.ts). */
  highlight?: boolean;
  tagId?: string;
  /** true: only pinned notes; false: only the others. The order is the same either way. */
  pinned?: boolean;
  limit: number;
  offset: number;
  cursor?: NoteCursor;
};

/** A page of notes as objects, each with its version (the wire form has none). */
export type NoteList = { notes: TNote[]; versions: number[]; total: number; nextCursor?: string };

type NoteSort = "updated" | "relevance";

/**
 * A page as JSON text, one per note in the compact wire form, for handlers
 * that pass it straight through. Notes come one per row: a page of large
 * notes as one string would be one large allocation per request, which V8
 * places in its old generation and collects only with a full collection.
 */
export type NoteListJson = { noteJsons: string[]; versions: number[]; total: number; nextCursor?: string };

/** A page as the database wrote it: each note's JSON text in the database's own spacing. */
type RawNotePage = { rawJsons: string[]; versions: number[]; total: number; nextCursor?: string; highlight: boolean; search?: string };

// Built once: the same text for every page, from the one field list.
const NOTE_JSON = noteJsonSql("n");

/** `%term%`, folded by the database's search_fold: the one definition of a match. */
const foldedPattern = (term: string) => Prisma.sql`('%' || search_fold(${escapeLikePattern(term)}) || '%')`;

/** The term in a note holding an over-long token: its folded text, title and body apart. */
const textMatch = (term: string) => Prisma.sql`search_fold(n.title || ' ' || n.content_text) LIKE ${foldedPattern(term)}`;

/**
 * The term in one of the note's folded tokens, read from the note: for terms
 * too short for the vocabulary to narrow. Tokens hold no whitespace, so joined
 * with spaces they match exactly where a single token would.
 */
const noteTokensMatch = (term: string) => Prisma.sql`array_to_string(n.search_tokens, ' ') LIKE ${foldedPattern(term)}`;

/**
 * The notes holding a token of the account's vocabulary that contains the
 * term. As a plain `&&` the token index answers it; wrapped, it becomes a
 * per-note test, for walking the list order instead.
 */
const tokenMatch = (userId: string, term: string, useIndex: boolean) => {
  const overlap = Prisma.sql`n.search_tokens && (SELECT coalesce(array_agg(v.token), '{}'::text[]) FROM search_vocabulary v WHERE ${ownedBy(userId, "v")} AND v.token LIKE ${foldedPattern(term)})`;
  return useIndex ? overlap : Prisma.sql`coalesce(${overlap}, false)`;
};

/**
 * The filters as one or two disjoint branches, each a WHERE clause. Without a
 * search there is one. With a search, notes whose tokens were all indexed are
 * matched through their tokens (through the vocabulary's index, or, for terms
 * too short to narrow it, read from each note), and the few notes holding an
 * over-long token are matched on their folded text. Keeping the two apart lets
 * the common case run on the indexes alone, without reading any note's text.
 */
function filterBranches(options: Pick<ListNotesOptions, "userId" | "search" | "tagId" | "pinned" | "cursor">, useIndex = true): Prisma.Sql[] {
  const base = [ownedBy(options.userId, "n")];
  if (options.tagId) {
    base.push(Prisma.sql`EXISTS (SELECT 1 FROM note_tags nt WHERE nt.note_id = n.id AND nt.tag_id = ${options.tagId}::uuid)`);
  }
  // Spelled as the pinned list index's predicate, so pinned=true walks that index.
  if (options.pinned !== undefined) base.push(options.pinned ? Prisma.sql`n.pinned` : Prisma.sql`NOT n.pinned`);
  if (options.cursor) {
    base.push(Prisma.sql`(n.updated_at, n.id) < (${options.cursor.updatedAt}::timestamptz, ${options.cursor.id}::uuid)`);
  }
  const terms = searchTerms(options.search);
  if (terms.length === 0) return [Prisma.join(base, " AND ")];

  const overflow = [...base, Prisma.sql`n.search_overflow`, ...terms.map(textMatch)];
  // A term longer than any indexed token can only occur inside an over-long one.
  if (terms.some((term) => termLength(term) > MAX_INDEXED_TOKEN_LENGTH)) return [Prisma.join(overflow, " AND ")];
  const indexed = [
    ...base,
    Prisma.sql`NOT n.search_overflow`,
    ...terms.map((term) => (termLength(term) < MIN_TOKEN_TERM_LENGTH ? noteTokensMatch(term) : tokenMatch(options.userId, term, useIndex))),
  ];
  return [Prisma.join(indexed, " AND "), Prisma.join(overflow, " AND ")];
}

/**
 * How well a matching note answers the terms: for each term, 4 when it occurs
 * in the title, plus 2 when it is a whole word of the note (a token equal to
 * it) or 1 when a word starts with it. The word tests are sets of note ids
 * from the token index (a term's own token; the vocabulary's tokens that
 * start with it), hashed once, so ranking every match of a common term reads
 * no note's tokens or text.
 */
function relevanceScore(userId: string, terms: string[]): Prisma.Sql {
  const notesWith = (tokens: Prisma.Sql) => Prisma.sql`(SELECT t.id FROM notes t WHERE ${ownedBy(userId, "t")} AND t.search_tokens && ${tokens})`;
  return Prisma.join(
    terms.map((term) => {
      const startsWith = Prisma.sql`(search_fold(${escapeLikePattern(term)}) || '%')`;
      const wordsStarting = Prisma.sql`(SELECT coalesce(array_agg(v.token), '{}'::text[]) FROM search_vocabulary v WHERE ${ownedBy(userId, "v")} AND v.token LIKE ${startsWith})`;
      return Prisma.sql`(CASE WHEN n.search_title LIKE ${foldedPattern(term)} THEN 4 ELSE 0 END
        + CASE WHEN n.id IN ${notesWith(Prisma.sql`ARRAY[search_fold(${term})]`)} THEN 2
               WHEN n.id IN ${notesWith(wordsStarting)} THEN 1
               ELSE 0 END)`;
    }),
    " + ",
  );
}

/**
 * The exact number of notes matching the filters, as one SQL expression. It comes
 * from counters that triggers keep in the same transaction as every write, so
 * a large account's total costs no counting. Pinned notes are counted through
 * their own index, which holds only them; the notes not pinned are the
 * counter less those, read in the same statement's snapshot.
 */
function totalSql(options: ListNotesOptions): Prisma.Sql {
  const counter = options.tagId
    ? Prisma.sql`(SELECT note_count FROM tags WHERE ${ownedRow(options.tagId, options.userId)})`
    : Prisma.sql`(SELECT note_count FROM users WHERE id = ${options.userId}::uuid)`;
  const pinned = Prisma.sql`(SELECT count(*) FROM notes n WHERE ${filterBranches({ ...options, search: undefined, cursor: undefined, pinned: true })[0]!})`;
  const total = options.pinned === undefined ? counter : options.pinned ? pinned : Prisma.sql`${counter} - ${pinned}`;
  return Prisma.sql`(${total})::int`;
}

/** The total of totalSql alone, for a page that came back empty (an offset past the end). */
async function countNotes(db: Db, options: ListNotesOptions): Promise<number> {
  // Counters read by key, or the pinned notes counted through their own index: the same plan for any values.
  const rows = await queryRows<{ total: number | null }>(db, Prisma.sql`SELECT ${totalSql(options)} AS total`, { prepare: true });
  return Number(rows[0]?.total ?? 0);
}

/** The exact number of notes matching a search, and how many notes the user has. */
async function countMatches(db: Db, options: ListNotesOptions): Promise<{ total: number; notes: number }> {
  const counts = filterBranches({ ...options, cursor: undefined }).map((where) => Prisma.sql`(SELECT count(*) FROM notes n WHERE ${where})`);
  const rows = await queryRows<{ total: number; notes: number }>(
    db,
    Prisma.sql`SELECT (${Prisma.join(counts, " + ")})::int AS total, (SELECT note_count FROM users WHERE id = ${options.userId}::uuid) AS notes`,
  );
  return { total: Number(rows[0]?.total ?? 0), notes: Number(rows[0]?.notes ?? 0) };
}

/** How much more a note tested during an ordered walk costs than one collected from the token index. */
const WALK_COST = 8;

/**
 * A page of the user's notes, most recently updated first (ties by id), with
 * the exact total; each note as JSON text the database built.
 */
async function rawNotePage(db: Db, options: ListNotesOptions): Promise<RawNotePage> {
  // One row past the page tells whether a next page exists.
  const take = options.limit + 1;
  const terms = searchTerms(options.search);
  const searching = terms.length > 0;
  const ranked = searching && options.sort === "relevance";
  // With a search the count comes first: it tells how to find the page.
  const matches = searching ? await countMatches(db, options) : null;
  // Walking the list order and testing each note stops after about
  // (offset + take) × notes / matches notes, each read in full (its tokens);
  // collecting every match through the token index and sorting touches
  // `matches` notes, each far cheaper (measured: about WALK_COST times).
  // Take the cheaper: the walk for a common term's first pages, the index for
  // a rare term or a deep page. Ranking needs every match: never a walk.
  const walk = !ranked && matches !== null && (options.offset + take) * matches.notes * WALK_COST < matches.total * matches.total;
  const wheres = filterBranches(options, !walk);
  const page = Prisma.sql`LIMIT ${take} OFFSET ${options.offset}`;
  // The page's notes with their positions in the list's order.
  const fetched = ranked
    ? Prisma.sql`SELECT id, row_number() OVER (ORDER BY score DESC, updated_at DESC, id DESC) AS position FROM (
        SELECT id, updated_at, score FROM (${Prisma.join(
          wheres.map((where) => Prisma.sql`SELECT n.id, n.updated_at, ${relevanceScore(options.userId, terms)} AS score FROM notes n WHERE ${where}`),
          " UNION ALL ",
        )}) AS matches ORDER BY score DESC, updated_at DESC, id DESC ${page}) AS ranked`
    : Prisma.sql`SELECT id, row_number() OVER (ORDER BY updated_at DESC, id DESC) AS position FROM (
        SELECT id, updated_at FROM (${Prisma.join(
          wheres.map((where) =>
            !searching || walk
              ? Prisma.sql`(SELECT n.id, n.updated_at FROM notes n WHERE ${where} ORDER BY n.updated_at DESC, n.id DESC LIMIT ${take + options.offset})`
              : Prisma.sql`SELECT n.id, n.updated_at FROM notes n WHERE ${where}`,
          ),
          " UNION ALL ",
        )}) AS matches ORDER BY updated_at DESC, id DESC ${page}) AS ordered`;
  // Without a search the total rides on the page's statement (computed once,
  // in the page's own snapshot); a page past the end asks for it alone.
  const pageRows = await queryRows<{ note: string | null; version: number; updated_at: string; id: string; total?: number | null }>(
    db,
    Prisma.sql`WITH fetched AS MATERIALIZED (${fetched})
    SELECT
      CASE WHEN f.position <= ${options.limit} THEN ${NOTE_JSON}::text END AS note,
      n.version,
      ${isoTimestamp(Prisma.sql`n.updated_at`)} AS updated_at,
      n.id::text AS id${matches ? Prisma.empty : Prisma.sql`,
      ${totalSql(options)} AS total`}
    FROM fetched f JOIN notes n ON n.id = f.id
    ORDER BY f.position`,
    // A plain page has one sensible plan (the list index, in its order),
    // whatever the values; a search's or a tag's depends on how many notes
    // match. PostgreSQL also keeps planning a prepared statement afresh when
    // its generic plan looks costlier than the ones made for the values.
    { prepare: !searching && !options.tagId },
  );
  const total = matches ? matches.total : pageRows.length > 0 ? Number(pageRows[0]!.total ?? 0) : await countNotes(db, options);
  const shown = pageRows.slice(0, options.limit);
  // A cursor continues the default order only; ranked pages go by offset.
  const last = !ranked && pageRows.length > options.limit ? pageRows[options.limit - 1] : undefined;
  return {
    rawJsons: shown.map((row) => row.note!),
    versions: shown.map((row) => Number(row.version)),
    total,
    nextCursor: last ? encodeCursor({ updatedAt: last.updated_at, id: last.id }) : undefined,
    highlight: searching && options.highlight === true,
    search: options.search,
  };
}

/** The page's notes as objects, each with its `snippet` when the page asked for one. */
async function pageNotes(db: Db, page: RawNotePage): Promise<TNote[]> {
  const notes = page.rawJsons.map((json) => JSON.parse(json) as TNote);
  if (!page.highlight) return notes;
  const highlights = await highlightNotes(db, notes, page.search);
  return notes.map((note, index) => ({ ...note, snippet: snippetHtml(highlights[index]!.snippet) }));
}

const pageTail = ({ versions, total, nextCursor }: RawNotePage) => ({ versions, total, ...(nextCursor ? { nextCursor } : {}) });

/** A page of the user's notes in the wire form every answer has (compactJson), for handlers that pass it through. */
export async function listNotesJson(db: Db, options: ListNotesOptions): Promise<NoteListJson> {
  const page = await rawNotePage(db, options);
  // A highlighted page is rebuilt as objects anyway; a plain one is compacted as it is.
  const noteJsons = page.highlight ? (await pageNotes(db, page)).map((note) => JSON.stringify(note)) : page.rawJsons.map(compactJson);
  return { noteJsons, ...pageTail(page) };
}

/** A page of the user's notes as objects (see rawNotePage). */
export async function listNotes(db: Db, options: ListNotesOptions): Promise<NoteList> {
  const page = await rawNotePage(db, options);
  return { notes: await pageNotes(db, page), ...pageTail(page) };
}

/** One note's JSON text as the database wrote it. */
async function rawNoteOrThrow(db: Db, { id, userId }: { id: string; userId: string }): Promise<{ rawJson: string; version: number }> {
  // Ownership is part of the lookup: another user's note is indistinguishable from a missing one.
  const [row] = await queryRows<{ note: string; version: number }>(
    db,
    Prisma.sql`SELECT ${NOTE_JSON}::text AS note, n.version FROM notes n WHERE ${ownedRow(id, userId, "n")}`,
    { prepare: true },
  );
  if (!row) throw noteNotFound();
  return { rawJson: row.note, version: row.version };
}

export async function getNoteOrThrow(db: Db, lookup: { id: string; userId: string }): Promise<{ note: TNote; version: number }> {
  const { rawJson, version } = await rawNoteOrThrow(db, lookup);
  return { note: JSON.parse(rawJson) as TNote, version };
}

/** One note in the wire form every answer has (compactJson), for handlers that pass it straight through. */
export async function getNoteJsonOrThrow(db: Db, lookup: { id: string; userId: string }): Promise<{ noteJson: string; version: number }> {
  const { rawJson, version } = await rawNoteOrThrow(db, lookup);
  return { noteJson: compactJson(rawJson), version };
}
