import { z } from "zod";
import { defineSessionOperation } from "@/lib/operations/operation";
import { contentToText } from "@/lib/body/content-text";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/body/document";
import { toPlainJson, toStorableString } from "@/lib/db/storable-text";
import { AppError, fieldDetails, validationError } from "@/lib/errors";
import { contentTooLargeMessage, UNTITLED } from "@/lib/notes/editor-types";
import { createNote, updateNote, type VersionedNote } from "@/lib/notes/mutations";
import { listNoteRowGroups, type NoteRowGroups } from "@/lib/notes/rows";
import { NOTE_TITLE_MAX, ZListNotesQuerySchema, ZUpdateNoteSchema } from "@/lib/notes/schemas";
import { givenSettings, SETTINGS_SHAPE } from "@/lib/notes/settings";
import { listTagsWithNoteCounts, type TagWithCount } from "@/lib/tags/queries";

// The operations only the browser offers, each run by a server action
// (lib/actions): their input or their data has no REST or MCP form.

/**
 * The editor's save: the values the person changed, on top of the version the
 * editor has. Version 0 is a new note's first save, which creates it with the
 * id the browser made (the same save twice is one note). What a person can
 * type or paste but a database cannot hold (a NUL, half of an emoji) is
 * dropped rather than refusing the note over an invisible character, and the
 * note's text is derived here from what is stored, never taken from the browser.
 */
const ZSaveNoteSchema = z.object({
  version: z.number().int().min(0),
  // Twice the limit: the title is trimmed and checked against the limit below.
  title: z.string().max(NOTE_TITLE_MAX * 2).optional(),
  content: z.array(z.record(z.string(), z.unknown())).optional(),
  tagIds: z.array(z.guid()).max(100).optional(),
  ...SETTINGS_SHAPE.save,
});
export type SaveNoteBody = z.input<typeof ZSaveNoteSchema>;

export const saveNoteOperation = defineSessionOperation({
  ids: { id: "INVALID_NOTE_ID" },
  body: ZSaveNoteSchema,
  async run({ db, userId, author }, { params: { id }, body: { version, tagIds, ...given } }): Promise<VersionedNote> {
    const title = given.title === undefined ? undefined : toStorableString(given.title).trim() || UNTITLED;
    const content = given.content === undefined ? undefined : (toPlainJson(given.content, toStorableString) as Record<string, unknown>[]);
    if (content !== undefined) {
      const bytes = Buffer.byteLength(JSON.stringify(content));
      if (bytes > NOTE_CONTENT_MAX_BYTES) throw new AppError("INVALID_BODY", { fields: fieldDetails({ content: [contentTooLargeMessage(bytes)] }) });
    }
    const parsed = ZUpdateNoteSchema.safeParse({ title, content, contentText: content === undefined ? undefined : contentToText(content), tagIds, ...givenSettings(given) });
    if (!parsed.success) throw validationError("INVALID_BODY", parsed.error);
    const input = parsed.data;
    if (version > 0) return updateNote(db, { id, userId, author, input, ifVersion: version });
    return createNote(db, { userId, author, id, input: { ...input, title: input.title ?? UNTITLED, content: input.content ?? [], contentText: input.contentText ?? "" } });
  },
});

/** How many notes of each group (pinned, the rest) the pane beside an open note lists; the notes page has them all. */
const PANE_NOTES_MAX = 50;

export type NotesPane = NoteRowGroups & { tags: TagWithCount[] };

/**
 * The notes for the list beside an open note (desktop), as the notes page
 * lists them (listNoteRowGroups): pinned first, then the rest, most recently
 * updated first, or with a search the best matches first; as rows of text
 * only, whatever the notes' sizes; with the account's tags for its filter.
 */
export const listPaneNotesOperation = defineSessionOperation({
  query: z.object({ q: ZListNotesQuerySchema.shape.search, tag: ZListNotesQuerySchema.shape.tagId }),
  async run({ db, userId }, { query: { q: search, tag: tagId } }): Promise<NotesPane> {
    const [groups, tags] = await Promise.all([
      listNoteRowGroups(db, { userId, search, tagId, sort: "relevance", pinnedLimit: PANE_NOTES_MAX, limit: PANE_NOTES_MAX, offset: 0 }),
      listTagsWithNoteCounts(db, { userId }),
    ]);
    return { ...groups, tags };
  },
});
