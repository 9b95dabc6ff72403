/** A run of excerpt text; `match` marks a search match to highlight. */
export type ExcerptPart = { text: string; match: boolean };

export const EXCERPT_LENGTH = 180;

/**
 * A short excerpt of a note's (whitespace-collapsed) text for lists: its
 * start, or, when it has matches ([start, end) ranges, in order), a window
 * around the first one, with every match inside the window marked.
 */
export function excerptAround(flat: string, ranges: readonly (readonly [number, number])[] = [], maxLength = EXCERPT_LENGTH): ExcerptPart[] {
  if (!flat) return [];
  let start = 0;
  const first = ranges[0]?.[0];
  if (first !== undefined && first > maxLength / 3) {
    // Start a little before the match, at a word boundary.
    const from = Math.max(0, first - Math.floor(maxLength / 4));
    const space = flat.indexOf(" ", from);
    start = space >= 0 && space < first ? space + 1 : from;
  }
  let end = Math.min(flat.length, start + maxLength);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    if (space > start + maxLength / 2) end = space;
  }
  // A match running past the window's end is kept whole.
  for (const [from, to] of ranges) if (from < end && to > end) end = to;
  const parts: ExcerptPart[] = [];
  let at = start;
  for (const [from, to] of ranges) {
    if (to <= start || from >= end) continue;
    const markFrom = Math.max(from, start);
    if (markFrom > at) parts.push({ text: flat.slice(at, markFrom), match: false });
    parts.push({ text: flat.slice(markFrom, to), match: true });
    at = to;
  }
  if (at < end) parts.push({ text: flat.slice(at, end), match: false });
  if (start > 0) parts.unshift({ text: "…", match: false });
  if (end < flat.length) parts.push({ text: "…", match: false });
  return parts;
}

/**
 * A note's text (contentText: a line per block, a table's cells apart by tabs)
 * on one line, as lists show it: blocks apart by " · ", cells by " | ", any
 * other white space one space.
 */
export function oneLineText(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .split("\t")
        .map((cell) => cell.replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .join(" | "),
    )
    .filter(Boolean)
    .join(" · ");
}

/** The start of a note's text, for lists without a search. */
export function noteExcerpt(text: string): ExcerptPart[] {
  return excerptAround(oneLineText(text));
}
