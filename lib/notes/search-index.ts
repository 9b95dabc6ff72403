import type { DbClient } from "@/lib/db/client";
import { noteSearchTokens } from "@/lib/notes/search-tokens";

/** A note's search columns, named as the Prisma fields. */
export type SearchColumns = { searchTokens: string[]; searchOverflow: boolean };

/** The search columns of a note with this title and text. */
export function searchColumns(title: string, contentText: string): SearchColumns {
  const { tokens, overflow } = noteSearchTokens(title, contentText);
  return { searchTokens: tokens, searchOverflow: overflow };
}

/**
 * Adds tokens to the shared vocabulary, in the note's transaction. Append-only:
 * a token that no note holds any more only costs a lookup. Sorted, so
 * concurrent writers take the unique index's locks in one order.
 */
export async function addToVocabulary(db: DbClient, tokens: string[]): Promise<void> {
  if (tokens.length === 0) return;
  const sorted = [...tokens].sort();
  await db.$executeRaw`INSERT INTO search_vocabulary (token) SELECT unnest(${sorted}::text[]) ON CONFLICT DO NOTHING`;
}
