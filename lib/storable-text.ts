import { z } from "zod";

// PostgreSQL text and jsonb cannot hold NUL, and an unpaired surrogate (which
// JSON's \u escapes can spell) is not valid UTF-8: refused as invalid input
// rather than failing in the database.
export const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSTORABLE_MESSAGE = "Must not contain NUL characters or unpaired surrogates";

export function isStorableJson(value: unknown): boolean {
  // Iterative: a deeply nested body must not exhaust the stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (UNSTORABLE.test(item)) return false;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (UNSTORABLE.test(key)) return false;
        pending.push(child);
      }
    }
  }
  return true;
}

/** A string schema that refuses what PostgreSQL cannot store. */
export const storableText = () => z.string().refine((value) => !UNSTORABLE.test(value), UNSTORABLE_MESSAGE);
