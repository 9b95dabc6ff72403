import { Prisma, queryRows, type Db, type DbClient, type Transaction } from "@/lib/db/client";
import { isEmptyBody } from "@/lib/body/document";
import { ownedBy, ownedRow } from "@/lib/db/owner";
import { accountWrite, writeTransaction } from "@/lib/db/transaction";
import { AppError, noteNotFound } from "@/lib/errors";
import type { TCreateNote, TNote, TUpdateNote } from "@/lib/notes/schemas";
import { noteJsonSql } from "@/lib/notes/serialize";
import { givenSettings, INITIAL_SETTINGS } from "@/lib/notes/settings";
import { settingColumnsSql, settingEqualsSql, settingValuesSql } from "@/lib/notes/settings-sql";
import { noteEtag } from "@/lib/notes/etag";
import { atVersionSql } from "@/lib/notes/version";
import { markdownBase, resolveMarkdownBody, type ResolvedBody } from "@/lib/notes/body";
import type { RevisionAuthor } from "@/lib/db/author";
import { moveNoteToTrash, purgeExpiredTrashQuietly } from "@/lib/notes/trash-move";

/** The subset of `tagIds` the user owns; the rest are ignored, as the contract says. */
async function ownedTagIds(db: DbClient, userId: string, tagIds: string[] | undefined): Promise<string[]> {
  if (!tagIds || tagIds.length === 0) return [];
  const unique = [...new Set(tagIds.map((id) => id.toLowerCase()))];
  const owned = await queryRows<{ id: string }>(db, Prisma.sql`SELECT id::text AS id FROM tags WHERE ${ownedBy(userId)} AND id = ANY(${unique}::uuid[])`);
  return owned.map((tag) => tag.id);
}

/** Links a note to tags (ids the user owns, see ownedTagIds). */
const linkTagsSql = (noteId: string, tagIds: string[]) =>
  Prisma.sql`INSERT INTO note_tags (note_id, tag_id) SELECT ${noteId}::uuid, tag_id FROM unnest(${tagIds}::uuid[]) AS tag_id`;

/** A note's wire form, built by the database (the same object serializeNoteWithTags makes). */
const NOTE_JSON = noteJsonSql("n");

/** A note as written, with the version its ETag is made from. */
export type VersionedNote = { note: TNote; version: number };

export type CreateNoteOptions = {
  userId: string;
  /** Who writes: recorded in the note's first revision ("system" when omitted: scripts). */
  author?: RevisionAuthor;
  input: TCreateNote;
  /**
   * A new note's id, made by the browser: the editor's first save creates the
   * note with it. The same note saved again (a retry whose answer was lost)
   * answers the note as it is; another note of this account with the id is a
   * 412 with that note; an id another account or the trash holds is a 409.
   */
  id?: string;
  /**
   * A note coming back from the trash: its id, version and timestamps are
   * kept instead of new ones. Everything else (search columns, vocabulary,
   * tag links, counters) is written exactly as for a create.
   */
  keep?: { id: string; version: number; createdAt: Date; updatedAt: Date };
};

/** Creates a note and its tag links in one transaction. */
export async function createNote(db: Db, { userId, author, input, id }: CreateNoteOptions): Promise<VersionedNote> {
  return accountWrite(db, userId, async () => {
    // Converted before the transaction opens, so no transaction waits on BlockNote.
    const resolved = await resolveMarkdownBody(input);
    return writeTransaction(db, (tx) => insertNote(tx, { userId, input: resolved, id }), { lockUserId: userId, author });
  });
}

/**
 * Creates a note inside the caller's transaction, for writes that must commit
 * together with it (an Idempotency-Key's stored response). Resolve Markdown
 * with resolveMarkdownBody before opening the transaction, and open it with
 * writeTransaction's `lockUserId` (and its `author`, for the revision): the
 * tags are read after that lock, so a tag deleted meanwhile is simply not
 * attached.
 */
export async function insertNote(
  tx: Transaction,
  { userId, input, keep, id: givenId }: Omit<CreateNoteOptions, "author" | "input"> & { input: ResolvedBody<TCreateNote> },
): Promise<VersionedNote> {
  const tagIds = await ownedTagIds(tx, userId, input.tagIds);
  // One timestamp for both, so updatedAt equals createdAt on a new note.
  const now = new Date();
  // As writeNoteUpdate: one statement writes the row and returns the note's
  // wire form, built by the database (an untagged note's tags are `[]`).
  const noteId = keep ? Prisma.sql`${keep.id}::uuid` : givenId ? Prisma.sql`${givenId}::uuid` : Prisma.sql`gen_random_uuid()`;
  const [inserted] = await queryRows<{ id: string; version: number; note: string }>(tx, Prisma.sql`
    INSERT INTO notes AS n (id, user_id, title, content, content_text, content_markdown, version, created_at, updated_at${settingColumnsSql()})
    SELECT ${noteId}, ${userId}::uuid, ${input.title},
      ${JSON.stringify(input.content ?? [])}::jsonb, ${input.contentText ?? ""}, ${isEmptyBody(input.content) ? null : (input.derivedMarkdown ?? null)},
      ${keep?.version ?? 1}, ${keep?.createdAt ?? now}, ${keep?.updatedAt ?? now}${settingValuesSql(input)}
    ${givenId ? Prisma.sql`WHERE NOT EXISTS (SELECT 1 FROM trashed_notes t WHERE t.id = ${givenId}::uuid) ON CONFLICT (id) DO NOTHING` : Prisma.empty}
    RETURNING n.id::text AS id, n.version, ${NOTE_JSON}::text AS note`);
  if (!inserted && givenId) return sameNoteOrThrow(tx, { id: givenId, userId, input, tagIds });
  const { id, version, note } = inserted!;
  if (tagIds.length === 0) return { note: JSON.parse(note) as TNote, version };
  // A new note's tag links can only follow its row, which recorded its first
  // revision without them (see the note_revisions migration): they join it here.
  const links = Prisma.sql`${linkTagsSql(id, tagIds)} RETURNING tag_id`;
  if (keep) await queryRows(tx, links);
  else {
    await queryRows(tx, Prisma.sql`WITH links AS (${links})
      UPDATE note_revisions SET tag_ids = (SELECT array_agg(tag_id ORDER BY tag_id) FROM links)
      WHERE note_id = ${id}::uuid AND version = ${version}`);
  }
  const [tagged] = await queryRows<{ note: string }>(tx, Prisma.sql`SELECT ${NOTE_JSON}::text AS note FROM notes n WHERE n.id = ${id}::uuid`);
  return { note: JSON.parse(tagged!.note) as TNote, version };
}

export type UpdateNoteOptions = {
  id: string;
  userId: string;
  /** Who writes: recorded in the revision this write makes ("system" when omitted: scripts). */
  author?: RevisionAuthor;
  input: TUpdateNote;
  /** Write only if the note is still at this version (If-Match); otherwise 412 with the current note. */
  ifVersion?: number;
  /** The write puts back the note's revision of this version (restoreRevision): its revision is recorded as a restore. */
  restoredFrom?: number;
};

/**
 * Applies a partial update; `tagIds`, when given, replaces the note's tags.
 * The version check and the write are one UPDATE … WHERE version = $n, so of
 * two writers holding the same version exactly one succeeds.
 */
export async function updateNote(db: Db, { id, userId, author, input: given, ifVersion, restoredFrom }: UpdateNoteOptions): Promise<VersionedNote> {
  return accountWrite(db, userId, async () => {
    // Markdown written back keeps every block whose Markdown it left unchanged.
    const current = "contentMarkdown" in given && given.contentMarkdown !== undefined ? await markdownBase(db, { id, userId, ifVersion }) : undefined;
    // Converted before the transaction opens, so no transaction waits on a conversion.
    const input = await resolveMarkdownBody(given, current);
    // The account's write lock first, before the note's row: the change this
    // write adds to the account's feed is numbered under it (see the
    // change_feed migration), and a new tag set touches the account's counters.
    // A restore is recorded even when it puts back what the note already holds.
    return writeTransaction(db, (tx) => writeNoteUpdate(tx, { id, userId, input, ifVersion, evenIfUnchanged: restoredFrom !== undefined }), {
      lockUserId: userId,
      author,
      restoredFrom,
    });
  });
}

export type WriteNoteUpdateOptions = {
  id: string;
  userId: string;
  /** Resolved: any Markdown already converted (resolveMarkdownBody). */
  input: ResolvedBody<TUpdateNote>;
  /** Write only if the note is still at this version; otherwise 412 with the current note (404 when it is gone). */
  ifVersion?: number;
  /** Write a new version even when nothing stored changes (a restore); otherwise such a write answers the note as it is. */
  evenIfUnchanged?: boolean;
  /**
   * The stored content's leading and trailing blocks `input.content` keeps
   * as they are (a targeted edit, at the version the row is locked at): when
   * only one block lies between, only it is sent, and the rest is the row's.
   */
  keptBlocks?: { head: number; tail: number; storedLength: number };
};

/**
 * The one write of a change to a note, inside the caller's transaction, for
 * every way a note is changed (updateNote, targeted edits in
 * lib/notes/edits.ts). The version check and the write are one UPDATE …
 * WHERE version = $n. A new tag set needs the account's write lock
 * (writeTransaction's `lockUserId`), taken before this, and is written before
 * the note's row, so the revision the row's write records (see the
 * note_revisions migration) has it.
 */
export async function writeNoteUpdate(
  tx: Transaction,
  { id, userId, input, ifVersion, evenIfUnchanged, keptBlocks }: WriteNoteUpdateOptions,
): Promise<VersionedNote> {
  const tagIds = input.tagIds === undefined ? undefined : await ownedTagIds(tx, userId, input.tagIds);
  const unchanged = evenIfUnchanged ? null : await noteIfUnchanged(tx, { id, userId, input, tagIds, ifVersion });
  if (unchanged) return unchanged;
  if (tagIds !== undefined) {
    // The note is the user's and at the version, and stays so (its row is locked), before its links change.
    await lockNoteAtVersion(tx, { id, userId, ifVersion });
    await queryRows(tx, Prisma.sql`DELETE FROM note_tags WHERE note_id = ${id}::uuid`);
    if (tagIds.length > 0) await queryRows(tx, linkTagsSql(id, tagIds));
  }
  // One statement writes the row and returns the note's wire form, built by
  // the database: through the query builder, a long note's JSON cost about as
  // much again as the write, and reading it back as much once more.
  const sets = [
    input.title === undefined ? null : Prisma.sql`title = ${input.title}`,
    input.content === undefined ? null : Prisma.sql`content = ${contentSql(input.content, keptBlocks)}`,
    input.contentText === undefined ? null : Prisma.sql`content_text = ${input.contentText}`,
    input.derivedMarkdown !== undefined
      ? Prisma.sql`content_markdown = ${input.derivedMarkdown}`
      : // The text of a note with no blocks (isEmptyBody: null or []) is its body: its Markdown is rendered again on the next Markdown read.
        input.contentText === undefined
        ? null
        : Prisma.sql`content_markdown = CASE WHEN n.content IN ('[]'::jsonb, 'null'::jsonb) THEN NULL ELSE n.content_markdown END`,
    ...settingEqualsSql(input),
    Prisma.sql`updated_at = ${new Date()}`,
    Prisma.sql`version = version + 1`,
  ].filter((set) => set !== null);
  const [written] = await queryRows<{ version: number; note: string }>(tx, Prisma.sql`
    UPDATE notes n SET ${Prisma.join(sets)}
    WHERE ${ownedRow(id, userId, "n")}${atVersionSql(ifVersion, "n.version")}
    RETURNING n.version, ${NOTE_JSON}::text AS note`);
  if (!written) throw await missingOrModified(tx, { id, userId });
  return { note: JSON.parse(written.note) as TNote, version: written.version };
}

/**
 * The new content as SQL: when it replaces one block of the stored content
 * and keeps the rest (a one-block edit), only that block is sent and set in
 * the row's content (jsonb_set costs about half of parsing the whole body
 * again); otherwise the whole content.
 */
function contentSql(content: unknown, kept: WriteNoteUpdateOptions["keptBlocks"]): Prisma.Sql {
  if (kept && Array.isArray(content) && content.length === kept.storedLength && kept.head + kept.tail === content.length - 1) {
    return Prisma.sql`jsonb_set(n.content, ${[String(kept.head)]}::text[], ${JSON.stringify(content[kept.head])}::jsonb)`;
  }
  return Prisma.sql`${JSON.stringify(content)}::jsonb`;
}

/**
 * The note as it is, when the write would change nothing stored (the same
 * title, body, pin and tags): such a write makes no version, so no revision,
 * no change in the feed and the same ETag. Null when something differs, or
 * when the note is missing or moved on (the write then answers that).
 */
async function noteIfUnchanged(
  tx: Transaction,
  { id, userId, input, tagIds, ifVersion }: Omit<WriteNoteUpdateOptions, "evenIfUnchanged"> & { tagIds: string[] | undefined },
): Promise<VersionedNote | null> {
  const same = [
    input.title === undefined ? null : Prisma.sql`n.title = ${input.title}`,
    input.content === undefined ? null : Prisma.sql`n.content = ${JSON.stringify(input.content)}::jsonb`,
    input.contentText === undefined ? null : Prisma.sql`n.content_text = ${input.contentText}`,
    ...settingEqualsSql(input, "n"),
    tagIds === undefined
      ? null
      : Prisma.sql`ARRAY(SELECT nt.tag_id FROM note_tags nt WHERE nt.note_id = n.id ORDER BY 1) = ARRAY(SELECT unnest(${tagIds}::uuid[]) ORDER BY 1)`,
  ].filter((condition) => condition !== null);
  const [row] = await queryRows<{ version: number; note: string }>(tx, Prisma.sql`
    SELECT n.version, ${NOTE_JSON}::text AS note FROM notes n
    WHERE ${ownedRow(id, userId, "n")}${atVersionSql(ifVersion, "n.version")}${same.length > 0 ? Prisma.sql` AND ${Prisma.join(same, " AND ")}` : Prisma.empty}`);
  return row ? { note: JSON.parse(row.note) as TNote, version: row.version } : null;
}

/**
 * Deletes a note, only at `ifVersion` when given: it leaves every list,
 * search and total at once and waits in the trash (lib/trash) for the
 * retention period, restorable with the same id.
 */
export async function deleteNote(
  db: Db,
  { id, userId, ifVersion }: { id: string; userId: string; ifVersion?: number },
): Promise<void> {
  // The delete's triggers count down the account's and its tags' counters: the account's write lock first.
  await writeTransaction(
    db,
    async (tx) => {
      if (!(await moveNoteToTrash(tx, { id, userId, ifVersion }))) throw await missingOrModified(tx, { id, userId });
    },
    { lockUserId: userId },
  );
  // Expired trash of any account goes lazily, after this delete has committed.
  await purgeExpiredTrashQuietly(db);
}

/**
 * Locks the user's note for the rest of the transaction and returns its
 * version, checked against `ifVersion` when given: 404 when the note is not
 * the user's, 412 with the note as it is when it moved on.
 */
export async function lockNoteAtVersion(tx: Transaction, { id, userId, ifVersion }: { id: string; userId: string; ifVersion?: number }): Promise<number> {
  const [locked] = await queryRows<{ version: number }>(tx, Prisma.sql`
    SELECT version FROM notes WHERE ${ownedRow(id, userId)}${atVersionSql(ifVersion)} FOR UPDATE`);
  if (!locked) throw await missingOrModified(tx, { id, userId });
  return locked.version;
}

/**
 * A create with an id that is taken: the account's note with that id when it
 * is exactly what was sent (the same save again), else 412 with it; 409 when
 * the id is not this account's note (never saying whose).
 */
async function sameNoteOrThrow(
  tx: Transaction,
  { id, userId, input, tagIds }: { id: string; userId: string; input: ResolvedBody<TCreateNote>; tagIds: string[] },
): Promise<VersionedNote> {
  const [current] = await queryRows<{ version: number; note: string; same: boolean }>(tx, Prisma.sql`
    SELECT n.version, ${NOTE_JSON}::text AS note,
      n.title = ${input.title} AND n.content = ${JSON.stringify(input.content ?? [])}::jsonb
        AND ${Prisma.join(settingEqualsSql({ ...INITIAL_SETTINGS, ...givenSettings(input) }, "n"), " AND ")}
        AND ARRAY(SELECT nt.tag_id::text FROM note_tags nt WHERE nt.note_id = n.id ORDER BY 1) = ${[...tagIds].sort()}::text[] AS same
    FROM notes n WHERE ${ownedRow(id, userId, "n")}`);
  if (!current) throw new AppError("NOTE_EXISTS");
  const note = JSON.parse(current.note) as TNote;
  if (current.same) return { note, version: current.version };
  throw new AppError("NOTE_MODIFIED", { fields: { note }, headers: { ETag: noteEtag(current.version) } });
}

/** After a conditional write touched nothing: 404 when the note is gone, else 412 with the current note. */
async function missingOrModified(db: DbClient, { id, userId }: { id: string; userId: string }): Promise<AppError> {
  const [current] = await queryRows<{ version: number; note: string }>(db, Prisma.sql`
    SELECT n.version, ${NOTE_JSON}::text AS note FROM notes n WHERE ${ownedRow(id, userId, "n")}`);
  if (!current) return noteNotFound();
  return new AppError("NOTE_MODIFIED", {
    fields: { note: JSON.parse(current.note) as TNote },
    headers: { ETag: noteEtag(current.version) },
  });
}
