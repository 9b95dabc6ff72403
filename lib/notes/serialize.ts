import { Prisma } from "@/lib/db/client";
import { jsonObjectSql, toWire, type Row, type WireField } from "@/lib/db/wire";
import type { TNote } from "@/lib/notes/schemas";
import { SETTING_KEYS, settingColumn, type SettingKey } from "@/lib/notes/settings";
import { serializeTag, TAG_SELECT, tagJsonSql, type TagRow } from "@/lib/tags/serialize";

/**
 * A note on the wire, in order, followed by its `tags`. The TypeScript
 * serializer below and the SQL one of list pages (noteJsonSql) are both built
 * from this list (lib/db/wire.ts).
 */
const NOTE_FIELDS = [
  { key: "id", column: "id" },
  { key: "title", column: "title" },
  { key: "content", column: "content" },
  { key: "contentText", column: "content_text" },
  ...SETTING_KEYS.map((key) => ({ key, column: settingColumn(key) }) as { [K in SettingKey]: { key: K; column: string } }[SettingKey]),
  { key: "createdAt", column: "created_at", timestamp: true },
  { key: "updatedAt", column: "updated_at", timestamp: true },
] as const satisfies readonly WireField[];

type NoteRow = Row<typeof NOTE_FIELDS>;

/** Search columns and the stored Markdown are for the server's own use: JSON reads leave them out. */
export const NOTE_OMIT = { searchTokens: true, searchOverflow: true, searchTitle: true, contentMarkdown: true } as const;

/** Relation include that loads a note's tags, alphabetically. */
export const NOTE_TAGS_INCLUDE = {
  tags: { select: { tag: { select: TAG_SELECT } }, orderBy: { tag: { name: "asc" } } },
} as const;

/** A note in its wire form, from its columns and its tags (in the order given). */
export function serializeNote(note: NoteRow, tags: TagRow[]): TNote {
  return { ...toWire(NOTE_FIELDS, note), tags: tags.map(serializeTag) } as TNote;
}

/** A note loaded with NOTE_TAGS_INCLUDE, in its wire form. */
export function serializeNoteWithTags(note: NoteRow & { tags: { tag: TagRow }[] }): TNote {
  return serializeNote(note, note.tags.map((link) => link.tag));
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
