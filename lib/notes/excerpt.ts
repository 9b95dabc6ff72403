/** A run of excerpt text; `match` marks a search term to highlight. */
export type ExcerptPart = { text: string; match: boolean };

/**
 * A short excerpt of a note's text for lists: the start of the text, or, when
 * searching, a window around the first term found, with every term marked.
 */
export function noteExcerpt(text: string, terms: string[] = [], maxLength = 180): ExcerptPart[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return [];
  // Longest first, so "notebook" is marked whole rather than as "note" + "book".
  const needles = terms
    .map((term) => term.toLowerCase())
    .filter((term) => term.length > 0)
    .sort((a, b) => b.length - a.length);
  const lower = flat.toLowerCase();

  let start = 0;
  const first = needles.map((needle) => lower.indexOf(needle)).filter((index) => index >= 0).sort((a, b) => a - b)[0];
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
  const window = flat.slice(start, end);
  const parts = markTerms(window, needles);
  if (start > 0) parts.unshift({ text: "…", match: false });
  if (end < flat.length) parts.push({ text: "…", match: false });
  return parts;
}

function markTerms(text: string, needles: string[]): ExcerptPart[] {
  if (needles.length === 0) return [{ text, match: false }];
  const lower = text.toLowerCase();
  const parts: ExcerptPart[] = [];
  let index = 0;
  let plainFrom = 0;
  while (index < text.length) {
    const needle = needles.find((candidate) => lower.startsWith(candidate, index));
    if (needle) {
      if (index > plainFrom) parts.push({ text: text.slice(plainFrom, index), match: false });
      parts.push({ text: text.slice(index, index + needle.length), match: true });
      index += needle.length;
      plainFrom = index;
    } else {
      index += 1;
    }
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), match: false });
  return parts;
}
