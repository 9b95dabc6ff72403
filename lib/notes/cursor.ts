import { UUID_PATTERN } from "@/lib/db/uuid";

/** Where a keyset page starts: strictly after this note in list order (updatedAt, then id, descending). */
export type NoteCursor = { updatedAt: string; id: string };

export function encodeCursor(cursor: NoteCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString("base64url");
}

// Exactly the form list pages write (toISOString, years 0001-9999): other
// strings Date.parse accepts ("1", "2020-02-31T…") PostgreSQL may refuse as a timestamp.
function isIsoTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && /^\d{4}-/.test(value) && !value.startsWith("0000-") && new Date(time).toISOString() === value;
}

/** The cursor in a `cursor` query value, or null when it is not one of ours. */
export function decodeCursor(value: string): NoteCursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [updatedAt, id] = parsed as unknown[];
    if (typeof updatedAt !== "string" || !isIsoTimestamp(updatedAt)) return null;
    if (typeof id !== "string" || !UUID_PATTERN.test(id)) return null;
    return { updatedAt, id };
  } catch {
    return null;
  }
}
