import { jsonObjectSql, selectOf, toWire, type Row, type WireField } from "@/lib/db/wire";
import type { TTag } from "@/lib/tags/schemas";

/** A tag on the wire, in order: serializeTag and tagJsonSql are both built from it. */
const TAG_FIELDS = [
  { key: "id", column: "id" },
  { key: "name", column: "name" },
  { key: "createdAt", column: "created_at", timestamp: true },
] as const satisfies readonly WireField[];

export type TagRow = Row<typeof TAG_FIELDS>;

/** Tag columns selected wherever a note's tags are read. */
export const TAG_SELECT = selectOf(TAG_FIELDS);

export function serializeTag(tag: TagRow): TTag {
  return toWire(TAG_FIELDS, tag) as TTag;
}

/** The wire form of the tag in row `alias` of the tags table, as the database builds it (the same object serializeTag makes). */
export function tagJsonSql(alias: string): ReturnType<typeof jsonObjectSql> {
  return jsonObjectSql(TAG_FIELDS, alias);
}
