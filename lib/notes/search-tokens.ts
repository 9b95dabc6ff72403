/**
 * Search terms. What a match is lives in the database (the
 * search_folding_in_database migration): a note matches a term when
 * search_fold(term) occurs in search_fold(title) or search_fold(content_text),
 * Unicode full case folding whatever the server's locale. Triggers keep each
 * note's distinct folded tokens (GIN-indexed) and each account's vocabulary
 * (trigram-indexed): a term is looked up in the small vocabulary first, and
 * the notes are then found through the tokens that contain it.
 *
 * This file only splits the typed search into terms, with the same whitespace
 * the database splits notes with.
 */

/** Longer tokens are not indexed; a note holding one is matched by a scan of its text instead. */
export const MAX_INDEXED_TOKEN_LENGTH = 100;

/** Shorter terms match too many tokens for the vocabulary to narrow anything: they are matched against each note's tokens. */
export const MIN_TOKEN_TERM_LENGTH = 3;

/**
 * JavaScript's `\s`, written out: the database's search_note_tokens splits
 * notes on exactly these characters (a test holds the two together).
 */
export const SEARCH_WHITESPACE = "\\u0009-\\u000d\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const WHITESPACE = new RegExp(`[${SEARCH_WHITESPACE}]+`, "u");

/** The search's terms, as typed, split on whitespace. */
export function searchTerms(search: string | undefined): string[] {
  return (search ?? "").split(WHITESPACE).filter((term) => term.length > 0);
}

/** Length in code points: folding never shortens a term, so a term longer than this folds longer too. */
export function termLength(term: string): number {
  return Array.from(term).length;
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}
