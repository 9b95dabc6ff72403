import type { TNote } from "@/lib/notes/schemas";
import type { TTag } from "@/lib/tags/schemas";

/** Tag columns selected wherever a note's tags are read. */
export const TAG_SELECT = { id: true, name: true, createdAt: true } as const;

/** Search columns and the stored Markdown are for the server's own use: JSON reads leave them out. */
export const NOTE_OMIT = { searchTokens: true, searchOverflow: true, contentMarkdown: true } as const;

/** Relation include that loads a note's tags, alphabetically. */
export const NOTE_TAGS_INCLUDE = {
  tags: { select: { tag: { select: TAG_SELECT } }, orderBy: { tag: { name: "asc" } } },
} as const;

export type TagRow = { id: string; name: string; createdAt: Date };
export type NoteRow = {
  id: string;
  title: string;
  content: unknown;
  contentText: string;
  createdAt: Date;
  updatedAt: Date;
};

export function serializeTag(tag: TagRow): TTag {
  return { id: tag.id, name: tag.name, createdAt: tag.createdAt.toISOString() };
}

function serializeNote(note: NoteRow, tags: TagRow[]): TNote {
  return {
    id: note.id,
    title: note.title,
    content: note.content as TNote["content"],
    contentText: note.contentText,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    tags: tags.map(serializeTag),
  };
}

/** A note loaded with NOTE_TAGS_INCLUDE, in its wire form. */
export function serializeNoteWithTags(note: NoteRow & { tags: { tag: TagRow }[] }): TNote {
  return serializeNote(note, note.tags.map((link) => link.tag));
}
