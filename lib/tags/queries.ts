import type { DbClient } from "@/lib/db/client";
import { serializeTag, TAG_SELECT } from "@/lib/notes/serialize";
import type { TTag } from "@/lib/tags/schemas";

/** The user's tags, by name (case-insensitively: the column is citext). */
export async function listTags(db: DbClient, { userId }: { userId: string }): Promise<TTag[]> {
  const tags = await db.tag.findMany({ where: { userId }, select: TAG_SELECT, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return tags.map(serializeTag);
}
