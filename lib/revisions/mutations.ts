import type { Db } from "@/lib/db/client";
import { updateNote, type VersionedNote } from "@/lib/notes/mutations";
import type { RevisionAuthor } from "@/lib/revisions/author";
import { getRevisionOrThrow } from "@/lib/revisions/queries";

/**
 * Puts the note back as it was at a revision: its title, content (block ids
 * included) and the tags it had that still exist. The restore is a write like
 * any other, through updateNote: a new version and a new revision by whoever
 * restores, and only at `ifVersion` when given. Earlier revisions stay.
 */
export async function restoreRevision(
  db: Db,
  { noteId, revisionId, userId, author, ifVersion }: { noteId: string; revisionId: string; userId: string; author?: RevisionAuthor; ifVersion?: number },
): Promise<VersionedNote> {
  const { revision, tagIds } = await getRevisionOrThrow(db, { noteId, revisionId, userId });
  return updateNote(db, {
    id: noteId,
    userId,
    author,
    ifVersion,
    input: { title: revision.title, content: revision.content, contentText: revision.contentText, tagIds },
  });
}
