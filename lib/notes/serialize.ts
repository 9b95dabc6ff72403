import { Prisma } from "@/lib/db/client";
import type { TNote } from "@/lib/notes/schemas";
import type { TTag } from "@/lib/tags/schemas";

/**
 * One field of a wire object: its JSON key (also the Prisma field), its SQL
 * column, and whether it is a timestamp (written exactly as toISOString
 * writes it, in both serializers).
 */
type WireField = { readonly key: string; readonly column: string; readonly timestamp?: true };

/**
 * A tag on the wire, in order. The TypeScript serializer below and the SQL
 * one of list pages (noteJsonSql) are both built from these lists, so the two
 * cannot drift apart in names, order or formats.
 */
const TAG_FIELDS = [
  { key: "id", column: "id" },
  { key: "name", column: "name" },
  { key: "createdAt", column: "created_at", timestamp: true },
] as const satisfies readonly WireField[];

/** A note on the wire, in order, followed by its `tags`. */
const NOTE_FIELDS = [
  { key: "id", column: "id" },
  { key: "title", column: "title" },
  { key: "content", column: "content" },
  { key: "contentText", column: "content_text" },
  { key: "pinned", column: "pinned" },
  { key: "createdAt", column: "created_at", timestamp: true },
  { key: "updatedAt", column: "updated_at", timestamp: true },
] as const satisfies readonly WireField[];

type Row<F extends readonly WireField[]> = { [K in F[number]["key"]]: Extract<F[number], { key: K }> extends { timestamp: true } ? Date : unknown };

const selectOf = <F extends readonly WireField[]>(fields: F) =>
  Object.fromEntries(fields.map((field) => [field.key, true])) as { [K in F[number]["key"]]: true };

/** Tag columns selected wherever a note's tags are read. */
export const TAG_SELECT = selectOf(TAG_FIELDS);

/** Search columns and the stored Markdown are for the server's own use: JSON reads leave them out. */
export const NOTE_OMIT = { searchTokens: true, searchOverflow: true, searchTitle: true, contentMarkdown: true } as const;

/** Relation include that loads a note's tags, alphabetically. */
export const NOTE_TAGS_INCLUDE = {
  tags: { select: { tag: { select: TAG_SELECT } }, orderBy: { tag: { name: "asc" } } },
} as const;

type TagRow = Row<typeof TAG_FIELDS>;
type NoteRow = Row<typeof NOTE_FIELDS>;

function toWire(fields: readonly WireField[], row: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const field of fields) wire[field.key] = field.timestamp ? (row[field.key] as Date).toISOString() : row[field.key];
  return wire;
}

export function serializeTag(tag: TagRow): TTag {
  return toWire(TAG_FIELDS, tag) as TTag;
}

/** A note in its wire form, from its columns and its tags (in the order given). */
export function serializeNote(note: NoteRow, tags: TagRow[]): TNote {
  return { ...toWire(NOTE_FIELDS, note), tags: tags.map(serializeTag) } as TNote;
}

/** A note loaded with NOTE_TAGS_INCLUDE, in its wire form. */
export function serializeNoteWithTags(note: NoteRow & { tags: { tag: TagRow }[] }): TNote {
  return serializeNote(note, note.tags.map((link) => link.tag));
}

// Timestamps exactly as Date.prototype.toISOString writes them.
export const isoTimestamp = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Keys and columns are the constants above, never input: spliced in as SQL text.
const jsonObjectSql = (fields: readonly WireField[], alias: string, ...extra: Prisma.Sql[]) =>
  Prisma.sql`json_build_object(${Prisma.join([
    ...fields.map((field) => {
      const column = Prisma.raw(`${alias}.${field.column}`);
      return Prisma.sql`${Prisma.raw(`'${field.key}'`)}, ${field.timestamp ? isoTimestamp(column) : column}`;
    }),
    ...extra,
  ])})`;

/** The wire form of the tag in row `alias` of the tags table, as the database builds it (the same object serializeTag makes). */
export function tagJsonSql(alias: string): Prisma.Sql {
  return jsonObjectSql(TAG_FIELDS, alias);
}

/**
 * The wire form of the note in row `alias` of the notes table, as the database
 * builds it for reads (the same object serializeNoteWithTags makes).
 */
export function noteJsonSql(alias: string): Prisma.Sql {
  const tags = Prisma.sql`(
    SELECT coalesce(json_agg(${tagJsonSql("t")} ORDER BY t.name, t.id), '[]'::json)
    FROM note_tags nt JOIN tags t ON t.id = nt.tag_id
    WHERE nt.note_id = ${Prisma.raw(alias)}.id
  )`;
  return jsonObjectSql(NOTE_FIELDS, alias, Prisma.sql`'tags', ${tags}`);
}
