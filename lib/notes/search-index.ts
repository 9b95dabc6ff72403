import type { DbClient } from "@/lib/db/client";
import { noteSearchTokens, type NoteTokens } from "@/lib/notes/search-tokens";

/** The search columns of a note with this title and text. */
export function searchColumns(title: string, contentText: string): { searchTokens: string[]; searchOverflow: boolean; tokens: NoteTokens } {
  const tokens = noteSearchTokens(title, contentText);
  return { searchTokens: tokens.tokens, searchOverflow: tokens.overflow, tokens };
}

/**
 * Adds tokens to the shared vocabulary. Append-only, so it runs on its own
 * before the note's transaction: a token added for a write that then fails
 * costs nothing, and no transaction holds vocabulary locks. Sorted, so
 * concurrent writers take locks in one order.
 */
export async function addToVocabulary(db: DbClient, tokens: string[]): Promise<void> {
  if (tokens.length === 0) return;
  const sorted = [...tokens].sort();
  await db.$executeRaw`INSERT INTO search_vocabulary (token) SELECT unnest(${sorted}::text[]) ON CONFLICT DO NOTHING`;
}

/** Rewrites a note's search columns from its current title and text. */
export async function reindexNote(db: DbClient, note: { id: string; title: string; contentText: string }): Promise<void> {
  const { searchTokens, searchOverflow } = searchColumns(note.title, note.contentText);
  await addToVocabulary(db, searchTokens);
  await db.$executeRaw`UPDATE notes SET search_tokens = ${searchTokens}::text[], search_overflow = ${searchOverflow} WHERE id = ${note.id}::uuid`;
}
