import { z } from "zod";

// PostgreSQL text and jsonb cannot hold NUL, and an unpaired surrogate (which
// JSON's \u escapes can spell) is not valid UTF-8: refused as invalid input
// rather than failing in the database.
export const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSTORABLE_MESSAGE = "Must not contain NUL characters or unpaired surrogates";

const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/**
 * The same rule applied the other way, for what a person typed or pasted in
 * the browser (an invisible character must not refuse a whole note): NUL
 * dropped, an unpaired surrogate replaced by U+FFFD. The API refuses instead.
 */
export function toStorableString(value: string): string {
  return value.replace(UNSTORABLE_ALL, (found) => (found === "\u0000" ? "" : "\ufffd"));
}

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

/**
 * The value as JSON would carry it: `undefined` inside an array becomes null
 * and an `undefined` property is dropped, as `JSON.stringify` does. The
 * browser's editor hands server actions such values (a table's unset column
 * widths are `[undefined, …]`), which a JSON column refuses. `text` maps
 * every string, keys included (toStorableString for the browser's saves).
 * Iterative, like isStorableJson, so depth alone cannot exhaust the stack.
 */
export function toPlainJson(value: unknown, text: (value: string) => string = (same) => same): unknown {
  const root: { value?: unknown } = {};
  const pending: { source: unknown; assign: (copy: unknown) => void }[] = [{ source: value, assign: (copy) => (root.value = copy) }];
  while (pending.length > 0) {
    const { source, assign } = pending.pop()!;
    if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length).fill(null);
      assign(copy);
      source.forEach((child, index) => {
        if (child !== undefined && typeof child !== "function" && typeof child !== "symbol") {
          pending.push({ source: child, assign: (c) => (copy[index] = c) });
        }
      });
    } else if (source !== null && typeof source === "object") {
      const copy: Record<string, unknown> = {};
      assign(copy);
      for (const [key, child] of Object.entries(source)) {
        if (child === undefined || typeof child === "function" || typeof child === "symbol") continue;
        pending.push({ source: child, assign: (c) => (copy[text(key)] = c) });
      }
    } else if (typeof source === "string") {
      assign(text(source));
    } else if (typeof source === "number" && !Number.isFinite(source)) {
      assign(null);
    } else {
      assign(source);
    }
  }
  return root.value === undefined ? null : root.value;
}
