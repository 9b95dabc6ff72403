/**
 * Search by tokens. A search term never contains whitespace, so it occurs in a
 * text exactly when it occurs inside one of the text's whitespace-separated
 * tokens. Each note stores its distinct lower-cased tokens (GIN-indexed), and a
 * shared vocabulary of all tokens carries a trigram index: a term is looked up
 * in the small vocabulary first, and the notes are then found through the
 * tokens that contain it, without reading any note's text.
 *
 * Terms and tokens are split and lower-cased here, in one place, by the same
 * rules, so the token path and a plain substring match agree.
 */

/** Longer tokens are not indexed; a note holding one is matched by a substring scan instead. */
export const MAX_INDEXED_TOKEN_LENGTH = 100;

/** Shorter terms match too many tokens for the vocabulary to narrow anything: they use a substring scan. */
export const MIN_TOKEN_TERM_LENGTH = 3;

const WHITESPACE = /\s+/;

/** The search's terms, as typed, split on whitespace. */
export function searchTerms(search: string | undefined): string[] {
  return (search ?? "").split(WHITESPACE).filter((term) => term.length > 0);
}

export function normalizeTerm(term: string): string {
  return term.toLowerCase();
}

export type NoteTokens = {
  /** Distinct lower-cased tokens of the title and the text, up to the indexed length. */
  tokens: string[];
  /** True when some token was too long to index. */
  overflow: boolean;
};

export function noteSearchTokens(title: string, contentText: string): NoteTokens {
  const distinct = new Set<string>();
  let overflow = false;
  for (const source of [title, contentText]) {
    for (const token of source.toLowerCase().split(WHITESPACE)) {
      if (token.length === 0) continue;
      if (token.length > MAX_INDEXED_TOKEN_LENGTH) overflow = true;
      else distinct.add(token);
    }
  }
  return { tokens: [...distinct], overflow };
}

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}
