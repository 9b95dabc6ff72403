import type { Db } from "@/lib/db/client";
import type { ExcerptPart } from "@/lib/notes/excerpt";
import { excerptAround, oneLineText } from "@/lib/notes/excerpt";
import { searchTerms } from "@/lib/notes/search-tokens";

/**
 * Highlighting search matches in a note's title and text. Whether a note
 * matches is the database's decision (search_fold); this marks where, with
 * the same folding: the rows of search_case_folding, read once per process,
 * and ASCII letters lowered, exactly as search_fold does.
 */

type Folding = ReadonlyMap<string, string>;

let folding: Promise<Folding> | undefined;

/** The database's case-folding table (fixed data, the same in every database of this app). */
function loadFolding(db: Db): Promise<Folding> {
  const loading =
    folding ??
    db.searchCaseFolding.findMany().then(
      (rows) => new Map(rows.map((row) => [row.code, row.folded])),
      (error: unknown) => {
        // Not cached: the next search reads it again.
        folding = undefined;
        throw error;
      },
    );
  folding = loading;
  return loading;
}

function foldChar(char: string, table: Folding): string {
  if (char.length === 1) {
    const code = char.charCodeAt(0);
    if (code >= 0x41 && code <= 0x5a) return String.fromCharCode(code + 0x20);
    if (code < 0x80) return char;
  }
  return table.get(char) ?? char;
}

/** Text folded, with, for each UTF-16 unit of the folded text, where its character starts and ends in the original. */
function foldWithOffsets(text: string, table: Folding): { folded: string; starts: number[]; ends: number[] } {
  let folded = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  for (const char of text) {
    const mapped = foldChar(char, table);
    folded += mapped;
    for (let unit = 0; unit < mapped.length; unit += 1) {
      starts.push(index);
      ends.push(index + char.length);
    }
    index += char.length;
  }
  return { folded, starts, ends };
}

/** A matching range of the original text, [start, end) in UTF-16 units. */
type MatchRange = [number, number];

/** Occurrences that mark one text, at most: a term found thousands of times marks the first ones. */
const MAX_RANGES = 200;

/** Where the (folded) terms occur in the text, merged and in order. */
function matchRanges(text: string, foldedTerms: string[], table: Folding): MatchRange[] {
  if (foldedTerms.length === 0 || text.length === 0) return [];
  const { folded, starts, ends } = foldWithOffsets(text, table);
  const ranges: MatchRange[] = [];
  for (const term of foldedTerms) {
    for (let at = folded.indexOf(term); at >= 0 && ranges.length < MAX_RANGES; at = folded.indexOf(term, at + term.length)) {
      ranges.push([starts[at]!, ends[at + term.length - 1]!]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: MatchRange[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/**
 * How far into a note's text matches are looked for (beyond it, the snippet
 * shows the text's start): 50,000 characters, fewer when a page holds many
 * notes, so one request never scans more than 1,000,000 in all.
 */
const SNIPPET_SCAN_CHARS = 50_000;
const SNIPPET_SCAN_PER_PAGE = 1_000_000;

/** Runs of text with the matched ones marked. */
function markRanges(text: string, ranges: MatchRange[]): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let from = 0;
  for (const [start, end] of ranges) {
    if (start > from) parts.push({ text: text.slice(from, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    from = end;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}

export type NoteHighlight = { title: ExcerptPart[]; snippet: ExcerptPart[] };

/**
 * The title with its matches marked, and a snippet of the text around the
 * first match (or its start) with every match in it marked.
 */
export async function highlightNotes(
  db: Db,
  notes: readonly { title: string; contentText: string }[],
  search: string | undefined,
): Promise<NoteHighlight[]> {
  const table = await loadFolding(db);
  const terms = searchTerms(search).map((term) => [...term].map((char) => foldChar(char, table)).join(""));
  const scanChars = Math.min(SNIPPET_SCAN_CHARS, Math.floor(SNIPPET_SCAN_PER_PAGE / Math.max(1, notes.length)));
  return notes.map((note) => {
    const flat = oneLineText(note.contentText);
    const scanned = flat.slice(0, scanChars);
    return {
      title: markRanges(note.title, matchRanges(note.title, terms, table)),
      snippet: excerptAround(flat, matchRanges(scanned, terms, table)),
    };
  });
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** A snippet as the API sends it: HTML-escaped text with each match in `<mark>…</mark>`. */
export function snippetHtml(parts: ExcerptPart[]): string {
  return parts.map((part) => {
    const text = part.text.replace(/[&<>"]/g, (char) => HTML_ESCAPES[char]!);
    return part.match ? `<mark>${text}</mark>` : text;
  }).join("");
}
