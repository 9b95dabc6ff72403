import type { DbClient } from "@/lib/db/client";
import { contentToMarkdown, noteMarkdown } from "@/lib/editor/markdown";
import { AppError, MESSAGES } from "@/lib/errors";
import { NOTE_TAGS_INCLUDE, serializeTag } from "@/lib/notes/serialize";
import type { TTag } from "@/lib/tags/schemas";

export type NoteMarkdown = {
  /** The note as one Markdown document, title first. */
  markdown: string;
  version: number;
  note: { id: string; title: string; pinned: boolean; updatedAt: string; tags: TTag[] };
};

/**
 * A note as Markdown: a read of the Markdown stored at write time. A note
 * written before Markdown was stored is rendered once, in the conversion pool
 * under the same budget as a write, and the result stored, so reads do not
 * repeat the work and a GET never triggers unbounded work. A body that is not
 * BlockNote JSON (stored as null) reads as its contentText.
 */
export async function getNoteMarkdownOrThrow(db: DbClient, { id, userId }: { id: string; userId: string }): Promise<NoteMarkdown> {
  // The content (often the largest column) is not loaded when the Markdown is there.
  const row = await db.note.findFirst({
    where: { id, userId },
    select: {
      id: true,
      title: true,
      pinned: true,
      contentMarkdown: true,
      version: true,
      updatedAt: true,
      ...NOTE_TAGS_INCLUDE,
    },
  });
  if (!row) throw new AppError("NOT_FOUND", { userMessage: MESSAGES.noteNotFound });
  let body = row.contentMarkdown;
  if (body === null) {
    const stored = await db.note.findFirst({ where: { id, userId, version: row.version }, select: { content: true, contentText: true } });
    const rendered = stored ? await contentToMarkdown(stored.content) : null;
    // A body that is not BlockNote JSON reads as its plain text.
    body = rendered ?? stored?.contentText ?? "";
    // Only if no write came in meanwhile (that write stored its own Markdown); neither version nor updatedAt change.
    if (rendered !== null) {
      await db.note.updateMany({ where: { id, userId, version: row.version, contentMarkdown: null }, data: { contentMarkdown: rendered } });
    }
  }
  return {
    markdown: noteMarkdown(row.title, body),
    version: row.version,
    note: { id: row.id, title: row.title, pinned: row.pinned, updatedAt: row.updatedAt.toISOString(), tags: row.tags.map((link) => serializeTag(link.tag)) },
  };
}
