import type { Db } from "@/lib/db/client";
import { serializeTag, TAG_SELECT } from "@/lib/tags/serialize";
import type { TTag } from "@/lib/tags/schemas";

/** The user's tags, by name (case-insensitively: the column is citext). */
export async function listTags(db: Db, { userId }: { userId: string }): Promise<TTag[]> {
  const tags = await db.tag.findMany({ where: { userId }, select: TAG_SELECT, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return tags.map(serializeTag);
}

export type TagWithCount = TTag & { noteCount: number };

/** The user's tags by name, each with how many notes carry it (the counter the note_tags trigger keeps, as list totals use). */
export async function listTagsWithNoteCounts(db: Db, { userId }: { userId: string }): Promise<TagWithCount[]> {
  const tags = await db.tag.findMany({
    where: { userId },
    select: { ...TAG_SELECT, noteCount: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return tags.map(({ noteCount, ...tag }) => ({ ...serializeTag(tag), noteCount }));
}
