import type { Db } from "@/lib/db/client";
import { updateNote, type VersionedNote } from "@/lib/notes/mutations";
import { givenSettings } from "@/lib/notes/settings";
import type { RevisionAuthor } from "@/lib/db/author";
import { getRevisionOrThrow } from "@/lib/revisions/queries";

/**
 * Puts the note back as it was at a revision: its title, content (block ids
 * included), text, settings (those the revision recorded) and the tags it had
 * that still exist. The restore is a write through updateNote, only at
 * `ifVersion` when given, and recorded as a restore of that version: always a
 * revision of its own, never folded into the person's save before it nor
 * joined by the next, so restoring the revision before it undoes it (see
 * note_revision_record). Earlier revisions stay.
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
    restoredFrom: revision.version,
    input: {
      title: revision.title,
      content: revision.content,
      contentText: revision.contentText,
      tagIds,
      // A setting the revision did not record stays as it is.
      ...givenSettings(revision),
    },
  });
}
