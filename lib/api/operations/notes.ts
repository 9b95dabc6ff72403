import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { NOTE_PATH, NOTES_PATH } from "@/lib/api-paths";
import { BODY_TOO_LARGE, CONVERSION_OVER_BUDGET, CONVERSION_QUEUE_FULL, KEY_REUSED, noteModified } from "@/lib/api/responses";
import { jsonResponse, jsonTextResponse, noteNotFound } from "@/lib/errors";
import { markdownResponse, matchesIfNoneMatch, preferredMediaType } from "@/lib/http";
import { idempotent } from "@/lib/idempotency/idempotency";
import { getNoteBlocksOrThrow } from "@/lib/notes/blocks";
import { editNote } from "@/lib/notes/edits";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { getNoteMarkdownOrThrow } from "@/lib/notes/body";
import { resolveMarkdownBody } from "@/lib/notes/body";
import { deleteNote, insertNote, updateNote } from "@/lib/notes/mutations";
import { getNoteJsonOrThrow, listNotesJson } from "@/lib/notes/queries";
import {
  ZCreateNoteSchema,
  ZEditNoteSchema,
  ZListNotesQuerySchema,
  ZNoteBlocksResponseSchema,
  ZNoteFormatQuerySchema,
  ZNoteListResponseSchema,
  ZNoteResponseSchema,
  ZUpdateNoteSchema,
} from "@/lib/notes/schemas";
import { getNoteVersion } from "@/lib/notes/version";
import { agentAuthor } from "@/lib/db/author";

const NOTE_ID = { id: "INVALID_NOTE_ID" } as const;

export const listNotesOperation = defineOperation({
  method: "GET",
  path: NOTES_PATH,
  operationId: "listNotes",
  description:
    "List your notes, most recently updated first; filter with search, tagId and pinned, page with limit and offset. A tagId that is no tag of yours (deleted, say) matches no notes: 200 with an empty list.",
  query: ZListNotesQuerySchema,
  responses: { 200: ZNoteListResponseSchema },
  mcp: { tool: "search_notes" },
  run: async ({ query, user, db }) => {
    const page = await listNotesJson(db, { userId: user.userId, ...query });
    // The notes arrive as JSON text (built by the database, compacted by the data layer): the page is written around them.
    const cursor = page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : "";
    const notes = page.noteJsons.flatMap((json, index) => (index === 0 ? [json] : [",", json]));
    return jsonTextResponse(['{"notes":[', ...notes, `],"total":${page.total}${cursor}}`]);
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
  mcp: { tool: "create_note" },
  run: async ({ body: request, idempotencyKey: key, user, db }) => {
    // Markdown is converted before the create's transaction opens.
    const input = await resolveMarkdownBody(request);
    return idempotent(db, {
      userId: user.userId,
      // Stored with each key: a new scope would forget the keys already given.
      scope: "POST /api/notes",
      key,
      request,
      author: agentAuthor("api", user),
      perform: async (tx) => {
        const { note, version } = await insertNote(tx, { userId: user.userId, input });
        return { status: 201, body: { note }, headers: { ETag: noteEtag(version) } };
      },
    });
  },
});

export const getNoteOperation = defineOperation({
  method: "GET",
  path: NOTE_PATH,
  operationId: "getNote",
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
  mcp: { tool: "get_note" },
  run: async ({ req, params: { id }, query: { format }, user, db }) => {
    if (req.headers.has("if-none-match")) {
      // The version alone decides: a caller whose copy is current gets 304 without the note being read.
      const current = await getNoteVersion(db, { id, userId: user.userId });
      if (!current) throw noteNotFound();
      const etag = noteEtag(current.version);
      if (matchesIfNoneMatch(req, etag)) return new Response(null, { status: 304, headers: { ETag: etag, Vary: "Accept" } });
    }
    if (format === "blocks") {
      const { body, version } = await getNoteBlocksOrThrow(db, { id, userId: user.userId });
      return jsonResponse(body, { headers: { ETag: noteEtag(version) } });
    }
    const markdown = format ? format === "markdown" : preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
    // The representation depends on Accept, so caches must key on it.
    const vary = { Vary: "Accept" };
    if (markdown) {
      // Stored at write time: a read, not a conversion.
      const found = await getNoteMarkdownOrThrow(db, { id, userId: user.userId });
      return markdownResponse(found.markdown, { headers: { ETag: noteEtag(found.version), ...vary } });
    }
    const { noteJson, version } = await getNoteJsonOrThrow(db, { id, userId: user.userId });
    return jsonTextResponse(`{"note":${noteJson}}`, { headers: { ETag: noteEtag(version), ...vary } });
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
  mcp: { tool: "update_note" },
  run: async ({ req, params: { id }, body: input, user, db }) => {
    const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
    const { note, version } = await updateNote(db, { id, userId: user.userId, author: agentAuthor("api", user), input, ifVersion });
    return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
  },
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
  mcp: { tool: "edit_note" },
  run: async ({ req, params: { id }, body: { operations }, user, db }) => {
    const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
    const { note, version } = await editNote(db, { id, userId: user.userId, operations, ifVersion, author: agentAuthor("api", user) });
    return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
  },
});

export const deleteNoteOperation = defineOperation({
  method: "DELETE",
  path: NOTE_PATH,
  operationId: "deleteNote",
  description:
    "Delete a note: it leaves every list, search and total at once and waits in the trash for the retention period (30 days by default), restorable with the same id. With If-Match, only if the note is still at that version.",
  ids: NOTE_ID,
  headers: ["If-Match"],
  responses: {
    204: null,
    404: null,
    412: noteModified("deleted"),
  },
  mcp: { tool: "delete_note" },
  run: async ({ req, params: { id }, user, db }) => {
    await deleteNote(db, { id, userId: user.userId, ifVersion: versionFromIfMatch(req.headers.get("if-match")) });
    return new Response(null, { status: 204 });
  },
});
