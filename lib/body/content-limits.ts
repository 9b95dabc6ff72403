/**
 * Per-note limits on a body, checked before any expensive work (conversion,
 * storage) and again on what a Markdown conversion produced, so a note the
 * API accepted is one the editor can save back. Pure, no server imports: the
 * conversion worker uses it too.
 */
export const CONTENT_LIMITS = {
  /** Bytes of `content` as JSON (UTF-8). The API's 1 MiB request body binds first for JSON writes. */
  maxBytes: 1_900_000,
  /** Blocks in `content`: top-level blocks plus every nested child block. */
  maxBlocks: 10_000,
  /** Levels of JSON nesting in `content` (a bullet nested ten deep in BlockNote JSON is about 25). */
  maxDepth: 100,
  /** Characters of `contentMarkdown`. */
  maxMarkdownChars: 100_000,
} as const;

const bytes = (n: number) => n.toLocaleString("en-US");

/**
 * Why `content` breaks a limit, or undefined. Iterative and stops at the first
 * level past the depth limit, so neither depth nor size can exhaust the stack
 * or take long; JSON.stringify only sees values already known to be shallow.
 */
export function contentLimitViolation(content: unknown): string | undefined {
  let blocks = 0;
  // [value, depth, whether the value is a list of blocks]
  const pending: [unknown, number, boolean][] = [[content, 1, true]];
  while (pending.length > 0) {
    const [value, depth, blockList] = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth > CONTENT_LIMITS.maxDepth) return `Content may nest at most ${CONTENT_LIMITS.maxDepth} levels deep`;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (blockList && item !== null && typeof item === "object" && !Array.isArray(item)) blocks += 1;
        pending.push([item, depth + 1, false]);
      }
      if (blocks > CONTENT_LIMITS.maxBlocks) return `Content may hold at most ${bytes(CONTENT_LIMITS.maxBlocks)} blocks`;
    } else {
      for (const key in value) {
        pending.push([(value as Record<string, unknown>)[key], depth + 1, key === "children"]);
      }
    }
  }
  const json = JSON.stringify(content) ?? "";
  if (Buffer.byteLength(json, "utf8") > CONTENT_LIMITS.maxBytes) {
    return `Content may be at most ${bytes(CONTENT_LIMITS.maxBytes)} bytes as JSON`;
  }
  return undefined;
}
