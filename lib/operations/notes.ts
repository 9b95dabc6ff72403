import { z } from "zod";
import { defineMcpOperation, defineOperation, type Answer } from "@/lib/operations/operation";
import { NOTE_PATH, NOTES_PATH } from "@/lib/http/paths";
import { BODY_TOO_LARGE, CONVERSION_OVER_BUDGET, CONVERSION_QUEUE_FULL, KEY_REUSED, noteModified } from "@/lib/operations/responses";
import { noteNotFound } from "@/lib/errors";
import { matchesIfNoneMatch, preferredMediaType } from "@/lib/http/parse";
import { getNoteBlocksOrThrow } from "@/lib/notes/blocks";
import { editNote } from "@/lib/notes/edits";
import { noteEtag } from "@/lib/notes/etag";
import { getNoteMarkdownOrThrow, resolveMarkdownBody } from "@/lib/notes/body";
import { deleteNote, insertNote, updateNote, type VersionedNote } from "@/lib/notes/mutations";
import { EXCERPT_LENGTH, noteExcerpt } from "@/lib/notes/excerpt";
import { getNoteJsonOrThrow, listNotes, listNotesJson } from "@/lib/notes/queries";
import { settingsOf } from "@/lib/notes/settings";
import { snippetHtml } from "@/lib/notes/snippet";
import {
  ZCreateNoteSchema,
  ZEditNoteSchema,
  ZListNotesQuerySchema,
  ZNoteBlocksResponseSchema,
  ZNoteFormatQuerySchema,
  ZNoteListResponseSchema,
  ZNoteResponseSchema,
  ZUpdateNoteSchema,
  queryBoolean,
  type TNote,
  type TNoteBlocksResponse,
} from "@/lib/notes/schemas";
import { getNoteVersion } from "@/lib/notes/version";

const NOTE_ID = { id: "INVALID_NOTE_ID" } as const;

/** A note as getNote reads it: unchanged since the caller's copy (If-None-Match), its blocks' outline, its Markdown, or its JSON (as the database wrote it). */
type NoteRead =
  | { unchanged: true; version: number }
  | { outline: TNoteBlocksResponse; version: number }
  | Awaited<ReturnType<typeof getNoteMarkdownOrThrow>>
  | { noteJson: string; version: number };

/** A written note as REST answers it: `{ note }` with its version as the ETag (an MCP result gives both). */
export const noteAnswer =
  (status: 200 | 201) =>
  ({ note, version }: VersionedNote): Answer => ({ status, body: { note }, headers: { ETag: noteEtag(version) } });

/** The format argument as MCP tools describe it: Markdown is their default. */
const FORMAT_ARGUMENT =
  "markdown (default): the note as Markdown, title as the first `# ` heading; json: the note as the REST API returns it; blocks: each block as { id, type, text } (headings with level, nested children), the ids edit_note addresses blocks by.";

export const listNotesOperation = defineOperation({
  method: "GET",
  path: NOTES_PATH,
  operationId: "listNotes",
  description:
    "List your notes, most recently updated first; filter with search, tagId and pinned, page with limit and offset. A tagId that is no tag of yours (deleted, say) matches no notes: 200 with an empty list.",
  query: ZListNotesQuerySchema,
  responses: { 200: ZNoteListResponseSchema },
  run: async ({ userId, db }, { query }) => listNotesJson(db, { userId, ...query }),
  answer: (page) => {
    // The notes arrive as JSON text (built by the database, compacted by the data layer): the page is written around them.
    const cursor = page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : "";
    const notes = page.noteJsons.flatMap((json, index) => (index === 0 ? [json] : [",", json]));
    return { status: 200, json: ['{"notes":[', ...notes, `],"total":${page.total}${cursor}}`] };
  },
});

/** search_notes's arguments: the list's query, and whether to give whole notes. */
const ZSearchNotesQuerySchema = z.object({
  ...ZListNotesQuerySchema.shape,
  full: queryBoolean.optional().meta({ description: "true: each note whole (content, contentText), as GET /api/notes gives it; default false: compact." }),
});

/**
 * A page of notes as search_notes gives them by default: what an agent needs
 * to pick one (a few hundred bytes each, where a whole note can be a megabyte).
 * A snippet comes with every note: around the first match of a search (the
 * list's own highlight), else the text's start.
 */
function compactNotes(notes: { note: TNote & { snippet?: string }; version: number }[]) {
  return notes.map(({ note, version }) => ({
    id: note.id,
    title: note.title,
    snippet: note.snippet ?? snippetHtml(noteExcerpt(note.contentText)),
    tags: note.tags.map(({ id, name }) => ({ id, name })),
    ...settingsOf(note),
    version,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  }));
}

/** MCP only: GET /api/notes with whole notes (full) or, by default, a compact form of each that REST does not offer. */
export const searchNotesOperation = defineMcpOperation({
  query: ZSearchNotesQuerySchema,
  mcp: {
    tool: "search_notes",
    title: "Search notes",
    description:
      `List your notes, most recently updated first. search: whitespace-separated terms that must all occur (ignoring case) in the title or text; sort: "relevance" puts the best matches first (title, then whole words); tagId filters by tag; pinned: true lists only pinned notes, false only the others (list both to show pinned ones first); limit (1 to 500, default 100) and offset page through \`total\` matches. ` +
      `Each note comes compact, a few hundred bytes whatever its size: id, title, snippet (about ${EXCERPT_LENGTH} characters of its text around the first match, or its start; HTML-escaped, matches in <mark>…</mark>), tags, pinned, version, createdAt and updatedAt; read one whole with get_note. full: true gives each note whole instead (content and contentText), as GET /api/notes does, with its version.`,
    readOnly: true,
  },
  run: async ({ userId, db }, { query: { full = false, ...query } }) => {
    const page = await listNotes(db, { userId, ...query, highlight: full ? query.highlight : true });
    const notes = page.notes.map((note, i) => ({ note: note as TNote & { snippet?: string }, version: page.versions[i]! }));
    const listed = full ? notes.map(({ note, version }) => ({ ...note, version })) : compactNotes(notes);
    return { notes: listed, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  },
});

export const createNoteOperation = defineOperation({
  method: "POST",
  path: NOTES_PATH,
  operationId: "createNote",
  description: "Create a note; the body as BlockNote JSON (content) or Markdown (contentMarkdown). An Idempotency-Key makes retries safe.",
  body: ZCreateNoteSchema,
  headers: ["Idempotency-Key"],
  responses: {
    201: { body: ZNoteResponseSchema, headers: ["ETag", "Idempotent-Replayed"] },
    413: BODY_TOO_LARGE,
    422: { body: null, description: `${KEY_REUSED}; or converting the body ${CONVERSION_OVER_BUDGET}. Nothing was written` },
    503: { body: null, description: CONVERSION_QUEUE_FULL },
  },
  mcp: {
    tool: "create_note",
    title: "Create a note",
    description:
      "Create a note. Give the body as contentMarkdown (Markdown; converted to the editor's blocks, searchable text derived) or as content (BlockNote JSON), not both. tagIds assigns tags (see list_tags); pinned: true pins it.",
  },
  create: {
    scope: "POST /api/notes",
    // Markdown is converted before the create's transaction opens.
    prepare: resolveMarkdownBody,
    write: (tx, { userId }, { body }) => insertNote(tx, { userId, input: body }),
  },
  answer: noteAnswer(201),
});

export const getNoteOperation = defineOperation({
  method: "GET",
  path: NOTE_PATH,
  operationId: "getNote",
  callers: ["token", "session"],
  description:
    "Fetch one note, as JSON, as Markdown (Accept: text/markdown or ?format=markdown) or as the outline of its blocks with their ids (?format=blocks), with its version as the ETag (every change to what this answers makes a new version, a rename or deletion of one of its tags included). With If-None-Match set to the ETag you hold, an unchanged note answers 304 with no body: a cheap way to ask whether it changed.",
  ids: NOTE_ID,
  headers: ["If-None-Match"],
  query: ZNoteFormatQuerySchema,
  responses: {
    200: {
      body: z.union([ZNoteResponseSchema, ZNoteBlocksResponseSchema]),
      description: "The note (`{ note }`), or with ?format=blocks `{ note, blocks }`",
      markdown: true,
      headers: ["ETag"],
    },
    304: { body: null, description: "Not modified: If-None-Match names the note's current version (its ETag), so the copy you have is current", headers: ["ETag"] },
    404: null,
    422: { body: null, description: "As Markdown: a note whose Markdown was not stored yet (written before Markdown was stored, or just changed by a targeted edit) went over the conversion budget (the error names the limit)" },
    503: { body: null, description: "As Markdown: no conversion worker was free in time; retry after Retry-After seconds" },
  },
  // Also the browser's session: an open editor asks this, conditionally, to learn of writes made elsewhere.
  browserSession: true,
  mcp: {
    tool: "get_note",
    title: "Read a note",
    description:
      "Read one note, as Markdown by default (title as the first `# ` heading: give the whole Markdown back to update_note and that line stays the title, not a block), as JSON, or as its blocks with their ids (format \"blocks\", for edit_note's blockId). Also gives its version: pass it as ifVersion to update_note or delete_note so you never overwrite someone else's edit.",
    readOnly: true,
    describe: { format: FORMAT_ARGUMENT },
    defaults: { format: "markdown" },
  },
  run: async ({ userId, db, req }, { params: { id }, query: { format } }): Promise<NoteRead> => {
    if (req?.headers.has("if-none-match")) {
      // The version alone decides: a caller whose copy is current gets 304 without the note being read.
      const current = await getNoteVersion(db, { id, userId });
      if (!current) throw noteNotFound();
      if (matchesIfNoneMatch(req, noteEtag(current.version))) return { unchanged: true, version: current.version };
    }
    if (format === "blocks") {
      const { body, version } = await getNoteBlocksOrThrow(db, { id, userId });
      return { outline: body, version };
    }
    // Without a format, REST asks Accept; the rest read JSON.
    const markdown = format ? format === "markdown" : !!req && preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
    // Stored at write time: a read, not a conversion.
    if (markdown) return getNoteMarkdownOrThrow(db, { id, userId });
    return getNoteJsonOrThrow(db, { id, userId });
  },
  answer: (read): Answer => {
    const etag = noteEtag(read.version);
    // The representation depends on Accept, so caches must key on it.
    const vary = { Vary: "Accept" };
    if ("unchanged" in read) return { status: 304, headers: { ETag: etag, ...vary } };
    if ("outline" in read) return { status: 200, body: read.outline, headers: { ETag: etag } };
    if ("markdown" in read) {
      const { note, version } = read;
      const facts = { id: note.id, title: note.title, ...settingsOf(note), version, etag, updatedAt: note.updatedAt, tags: note.tags };
      return { status: 200, markdown: read.markdown, facts, headers: { ETag: etag, ...vary } };
    }
    return { status: 200, json: `{"note":${read.noteJson}}`, headers: { ETag: etag, ...vary } };
  },
});

export const updateNoteOperation = defineOperation({
  method: "PATCH",
  path: NOTE_PATH,
  operationId: "updateNote",
  description:
    "Update a note with a partial body (content or contentMarkdown); tagIds replaces its tags; pinned pins or unpins it. With If-Match, only if the note is still at that version.",
  ids: NOTE_ID,
  body: ZUpdateNoteSchema,
  headers: ["If-Match"],
  responses: {
    200: { body: ZNoteResponseSchema, headers: ["ETag"] },
    404: null,
    412: noteModified("written"),
    413: BODY_TOO_LARGE,
    422: { body: null, description: `Converting the body ${CONVERSION_OVER_BUDGET}; nothing was written` },
    503: { body: null, description: CONVERSION_QUEUE_FULL },
  },
  mcp: {
    tool: "update_note",
    title: "Update a note",
    description:
      "Change a note's title, body (contentMarkdown or content, not both), contentText, tags (tagIds replaces them) or pin (pinned: true or false). Markdown written back keeps every block whose Markdown you left unchanged exactly as it was (colours, ids), and the title's `# ` line get_note puts first is the title, not a block (to rename, pass title); to change one part, edit_note is lighter. Pass the version you read as ifVersion: if the note changed since, nothing is written and the error carries the current note to merge with.",
  },
  run: ({ userId, db, author }, { params: { id }, body: input, ifVersion }) => updateNote(db, { id, userId, author, input, ifVersion }),
  answer: noteAnswer(200),
});

export const editNoteOperation = defineOperation({
  method: "POST",
  path: "/api/notes/{id}/edits",
  operationId: "editNote",
  description:
    "Targeted edits: operations (append, prepend, replace_text, replace_section, insert_before_section, insert_after_section, update_block, move_block, delete_block, set_title, add_tags, remove_tags) applied in order to the note as it is now, all or nothing; blocks they do not touch are kept exactly. No If-Match needed; with one, only at that version.",
  ids: NOTE_ID,
  body: ZEditNoteSchema,
  headers: ["If-Match"],
  responses: {
    200: { body: ZNoteResponseSchema, headers: ["ETag"] },
    400: {
      body: null,
      description:
        'Malformed request (id, header or URL), body not valid JSON, or a body that fails the schema (with details): blocks, a type, props or content the editor\'s schema does not hold are such a failure, `details.fieldErrors` naming the operation and the path, e.g. `operations[0] (append): blocks[0].type: unknown block type "x"`. Nothing was written',
    },
    404: null,
    409: {
      body: null,
      description:
        "An operation cannot apply to the note as it is (no block with that id, no such section, a replace_text count other than expectedCount); `operation` is its index, and a count mismatch gives expectedCount and foundCount. Nothing was written",
    },
    412: noteModified("written"),
    413: BODY_TOO_LARGE,
    422: { body: null, description: `Converting Markdown ${CONVERSION_OVER_BUDGET}; nothing was written` },
    503: { body: null, description: CONVERSION_QUEUE_FULL },
  },
  mcp: {
    tool: "edit_note",
    title: "Edit part of a note",
    description: [
      "Change part of a note without sending it all back: `operations` apply in order to the note as it is now, all or nothing (if one cannot apply, nothing is written and the error names its index). Blocks you do not touch keep everything, colours and ids included. No ifVersion needed; give one to apply only at that version. Block ids come from get_note with format \"blocks\". Operations, each with an example:",
      '- append / prepend: {"op":"append","markdown":"- [ ] call Sam"} (or "blocks": BlockNote JSON)',
      '- replace_text: {"op":"replace_text","find":"Friday","replace":"Monday","expectedCount":1}: fails with the count found unless exactly expectedCount matches (default 1)',
      '- replace_section: {"op":"replace_section","heading":"Risks","markdown":"## Risks\\n\\nNone left."}: the heading and its blocks up to the next heading of its level or higher; "keepHeading":true keeps the heading',
      '- insert_before_section / insert_after_section: {"op":"insert_after_section","heading":"Steps","markdown":"1. Ship"}',
      '- update_block: {"op":"update_block","blockId":"…","props":{"textColor":"red"},"content":"New text"} (also "type", "children"; a new type keeps only the props it has)',
      '- move_block: {"op":"move_block","blockId":"…","after":"…"} (or "before":"…", or "to":"start"/"end")',
      '- delete_block: {"op":"delete_block","blockId":"…"}',
      '- set_title: {"op":"set_title","title":"Plan v2"}',
      '- add_tags / remove_tags: {"op":"add_tags","tagIds":["…"]} (ids from list_tags)',
      "Blocks, types, props and content must be the editor's (BlockNote's default blocks): anything else is a 400 naming the operation and the path, e.g. operations[0] (append): blocks[0].type: unknown block type \"x\".",
    ].join("\n"),
  },
  run: ({ userId, db, author }, { params: { id }, body: { operations }, ifVersion }) => editNote(db, { id, userId, operations, ifVersion, author }),
  answer: noteAnswer(200),
});

export const deleteNoteOperation = defineOperation({
  method: "DELETE",
  path: NOTE_PATH,
  operationId: "deleteNote",
  callers: ["token", "session"],
  description:
    "Delete a note: it leaves every list, search and total at once and waits in the trash for the retention period (30 days by default), restorable with the same id. With If-Match, only if the note is still at that version.",
  ids: NOTE_ID,
  headers: ["If-Match"],
  responses: {
    204: null,
    404: null,
    412: noteModified("deleted"),
  },
  mcp: {
    tool: "delete_note",
    title: "Delete a note",
    description:
      "Delete a note: it moves to the trash, where restore_note brings it back with the same id for the retention period (30 days by default). Pass the version you read as ifVersion to delete only if nobody changed it since.",
    destructive: true,
  },
  run: async ({ userId, db }, { params: { id }, ifVersion }) => {
    await deleteNote(db, { id, userId, ifVersion });
    // Over REST a 204; an MCP result says which note went.
    return { deleted: id };
  },
});
