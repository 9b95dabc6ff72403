import { UUID_PATTERN } from "@/lib/http";

/** Where a keyset page starts: strictly after this note in list order (updatedAt, then id, descending). */
export type NoteCursor = { updatedAt: string; id: string };

export function encodeCursor(cursor: NoteCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString("base64url");
}

/** The cursor in a `cursor` query value, or null when it is not one of ours. */
export function decodeCursor(value: string): NoteCursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [updatedAt, id] = parsed as unknown[];
    if (typeof updatedAt !== "string" || Number.isNaN(Date.parse(updatedAt))) return null;
    if (typeof id !== "string" || !UUID_PATTERN.test(id)) return null;
    return { updatedAt, id };
  } catch {
    return null;
  }
}
