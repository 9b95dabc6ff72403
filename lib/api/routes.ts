import { z } from "zod";
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
import type { ApiRoute, HttpMethod } from "@/lib/api/operation";
import { createTagOperation, deleteTagOperation, listTagsOperation, renameTagOperation } from "@/lib/api/operations/tags";
import { BODY_TOO_LARGE, CONVERSION_OVER_BUDGET, CONVERSION_QUEUE_FULL, KEY_REUSED, noteModified } from "@/lib/api/responses";
import { ZAttachmentResponseSchema, ZUploadQuerySchema } from "@/lib/attachments/schemas";
import { ACCEPTED_TYPES } from "@/lib/attachments/types";
import { ZChangesQuerySchema, ZChangesResponseSchema } from "@/lib/changes/schemas";
import { ZListRevisionsQuerySchema, ZRevisionListResponseSchema, ZRevisionResponseSchema } from "@/lib/revisions/schemas";
import { ZListTrashQuerySchema, ZTrashListResponseSchema } from "@/lib/trash/schemas";

const ZJsonRpcIdSchema = z.union([z.string(), z.number()]);

const ZMcpMessageSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: ZJsonRpcIdSchema.optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: "A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …)." });

/** A JSON-RPC 2.0 error: how the MCP transport answers a message it cannot take (bad JSON, wrong Accept or Content-Type, too large). */
export const ZJsonRpcErrorSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: ZJsonRpcIdSchema.nullable(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ description: "A JSON-RPC 2.0 error from the MCP transport." });

const ZMcpResponseSchema = z
  .union([
    z.looseObject({ jsonrpc: z.literal("2.0"), id: ZJsonRpcIdSchema, result: z.record(z.string(), z.unknown()) }),
    ZJsonRpcErrorSchema,
  ])
  .meta({ description: "The JSON-RPC response to one request; tool failures are results with isError and the REST error text." });

/**
 * Every API route, in one table: the route files implement exactly these
 * (a test holds them to it), GET /api lists them and /api/openapi.json
 * describes them from the same schemas that validate requests.
 */
export const API_ROUTES = [
  {
    method: "GET",
    path: "/api",
    operationId: "getApiIndex",
    description: "This index of every endpoint.",
    responses: { 200: z.object({ name: z.string(), version: z.string(), endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })) }) },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    description: "OpenAPI 3.1 description of this API.",
    responses: { 200: z.object({ openapi: z.string() }).loose() },
  },
  {
    method: "GET",
    path: "/api/health",
    description: "For load balancers, without a token: 200 when this instance's database answers within 2 s, else 503.",
    public: true,
    responses: {
      200: z.object({ status: z.literal("ok") }),
      503: { body: null, description: "The database did not answer; the body's status is \"unavailable\"" },
    },
  },
  {
    method: "GET",
    path: "/api/me",
    operationId: "getMe",
    description: "The account your token acts for.",
    responses: { 200: z.object({ userId: z.string(), email: z.string() }) },
  },
  {
    method: "GET",
    path: "/api/notes",
    operationId: "listNotes",
    description: "List your notes, most recently updated first; filter with search, tagId and pinned, page with limit and offset. A tagId that is no tag of yours (deleted, say) matches no notes: 200 with an empty list.",
    query: ZListNotesQuerySchema,
    responses: { 200: ZNoteListResponseSchema },
  },
  {
    method: "POST",
    path: "/api/notes",
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
  },
  {
    method: "GET",
    path: "/api/notes/{id}",
    operationId: "getNote",
    description:
      "Fetch one note, as JSON, as Markdown (Accept: text/markdown or ?format=markdown) or as the outline of its blocks with their ids (?format=blocks), with its version as the ETag (every change to what this answers makes a new version, a rename or deletion of one of its tags included). With If-None-Match set to the ETag you hold, an unchanged note answers 304 with no body: a cheap way to ask whether it changed.",
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
  },
  {
    method: "PATCH",
    path: "/api/notes/{id}",
    operationId: "updateNote",
    description: "Update a note with a partial body (content or contentMarkdown); tagIds replaces its tags; pinned pins or unpins it. With If-Match, only if the note is still at that version.",
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
  },
  {
    method: "POST",
    path: "/api/notes/{id}/edits",
    operationId: "editNote",
    description:
      "Targeted edits: operations (append, prepend, replace_text, replace_section, insert_before_section, insert_after_section, update_block, move_block, delete_block, set_title, add_tags, remove_tags) applied in order to the note as it is now, all or nothing; blocks they do not touch are kept exactly. No If-Match needed; with one, only at that version.",
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
  },
  {
    method: "DELETE",
    path: "/api/notes/{id}",
    operationId: "deleteNote",
    description:
      "Delete a note: it leaves every list, search and total at once and waits in the trash for the retention period (30 days by default), restorable with the same id. With If-Match, only if the note is still at that version.",
    headers: ["If-Match"],
    responses: {
      204: null,
      404: null,
      412: noteModified("deleted"),
    },
  },
  {
    method: "GET",
    path: "/api/notes/{id}/revisions",
    operationId: "listRevisions",
    description:
      "A note's history, newest first (the first is the note as it is now): every write that made a new version, with who made it — an agent through the REST API (api) or MCP (mcp), the person in the browser (browser), or an operator's script (system). A restore, an agent's write and a person's save are each a revision of their own; only a person's consecutive browser saves in one editor session (one visit to the note in one tab), with no restore or other writer between, join one revision, while each comes less than 2 minutes after the one before and less than 5 minutes after the first. So a new version begins after a 2-minute pause, when the person comes back to the note, after 5 minutes of editing, and after another writer or a restore; every state that stood for 2 minutes, and every state just before another author's write or a restore, is kept. Page with cursor.",
    query: ZListRevisionsQuerySchema,
    responses: { 200: ZRevisionListResponseSchema, 404: null },
  },
  {
    method: "GET",
    path: "/api/notes/{id}/revisions/{revisionId}",
    operationId: "getRevision",
    description: "The note as it was at one revision: title, content (block ids included), contentText, tags and pin, exactly as stored at that version whichever of them the write changed; as Markdown with Accept: text/markdown or ?format=markdown.",
    query: ZNoteFormatQuerySchema,
    responses: {
      200: { body: ZRevisionResponseSchema, markdown: true },
      404: { body: null, description: "No such note, or no such revision of it" },
      503: { body: null, description: `As Markdown: ${CONVERSION_QUEUE_FULL}` },
    },
  },
  {
    method: "POST",
    path: "/api/notes/{id}/revisions/{revisionId}/restore",
    operationId: "restoreRevision",
    description:
      "Put the note back as it was at a revision: its title, content, contentText, pin and the tags it had that still exist. The restore is always a revision of its own, marked with restoredFrom (earlier ones stay, and no later save is folded into it), so restoring the revision before it undoes it. With If-Match, only if the note is still at that version.",
    headers: ["If-Match"],
    responses: {
      200: { body: ZNoteResponseSchema, headers: ["ETag"] },
      404: { body: null, description: "No such note, or no such revision of it" },
      412: noteModified("written"),
      422: { body: null, description: `Converting the content ${CONVERSION_OVER_BUDGET}; nothing was written` },
      503: { body: null, description: CONVERSION_QUEUE_FULL },
    },
  },
  {
    method: "GET",
    path: "/api/trash",
    operationId: "listTrash",
    description: "List your deleted notes, most recently deleted first, each with when it leaves the trash for good; page with limit and offset or cursor.",
    query: ZListTrashQuerySchema,
    responses: { 200: ZTrashListResponseSchema },
  },
  {
    method: "DELETE",
    path: "/api/trash",
    operationId: "emptyTrash",
    description: "Empty the trash: every deleted note is gone for good.",
    responses: { 204: null },
  },
  {
    method: "POST",
    path: "/api/trash/{id}/restore",
    operationId: "restoreNote",
    description: "Restore a deleted note with the same id, content and version, and the tags it had that still exist.",
    responses: {
      200: { body: ZNoteResponseSchema, headers: ["ETag"] },
      404: { body: null, description: "No note with this id in your trash (never deleted, already restored, or expired)" },
      409: { body: null, description: "A note with this id exists" },
    },
  },
  {
    method: "DELETE",
    path: "/api/trash/{id}",
    operationId: "deleteNoteForever",
    description: "Remove one deleted note from the trash for good.",
    responses: { 204: null, 404: null },
  },
  listTagsOperation,
  createTagOperation,
  renameTagOperation,
  deleteTagOperation,
  {
    method: "POST",
    path: "/api/attachments",
    operationId: "uploadAttachment",
    description: `Store an image or file for a note: the raw bytes as the body, with their Content-Type, and ?name= for its file name. Its type is decided by its bytes (a declared type they contradict is refused with what they are). Accepted: ${ACCEPTED_TYPES.join(", ")}; at most ATTACHMENT_MAX_BYTES (10 MB by default). Answers its url, to fetch it with the same session token, and Markdown that shows it in a note.`,
    query: ZUploadQuerySchema,
    rawBody: { types: ACCEPTED_TYPES, description: "The file's bytes." },
    responses: { 201: ZAttachmentResponseSchema },
  },
  {
    method: "GET",
    path: "/api/attachments/{id}",
    operationId: "getAttachment",
    description: "An attachment's bytes, to its owner only (another account's is a 404), with its Content-Type, an ETag (If-None-Match → 304), inline for images and as a download for other files.",
    responses: {
      200: { body: null, binary: ACCEPTED_TYPES, description: "The bytes", headers: ["ETag"] },
      304: { body: null, description: "Not modified since the ETag given in If-None-Match", headers: ["ETag"] },
    },
  },
  {
    method: "GET",
    path: "/api/changes",
    operationId: "listChanges",
    description:
      "What changed in your notes and tags, in the order it was committed: notes created, updated, deleted (to the trash), restored and purged; tags created, renamed and deleted. Call once without since for the current cursor (after listing what you need), then pass each answer's cursor as since: you see every change exactly once, including changes committed concurrently, instead of listing again. With wait (seconds, up to 30) the answer waits for the next change when there is none yet (long poll).",
    query: ZChangesQuerySchema,
    responses: {
      200: ZChangesResponseSchema,
      410: { body: null, description: "The cursor is older than the changes kept (CHANGES_RETENTION_DAYS): list again and follow from a new cursor" },
    },
  },
  {
    method: "POST",
    path: "/api/mcp",
    operationId: "callMcp",
    description:
      "Model Context Protocol endpoint (Streamable HTTP, stateless, JSON responses): tools search_notes, get_note, create_note, update_note, edit_note, delete_note, list_revisions, get_revision, restore_revision, list_trash, restore_note, delete_note_forever, list_tags, create_tag, rename_tag, delete_tag, recent_changes, upload_attachment.",
    body: z.union([ZMcpMessageSchema, z.array(ZMcpMessageSchema).min(1)]),
    responses: {
      200: {
        body: z.union([ZMcpResponseSchema, z.array(ZMcpResponseSchema)]),
        description: "The JSON-RPC response, or for a batch the array of responses",
      },
      202: { body: null, description: "Notifications or responses only: accepted, nothing to answer" },
    },
    jsonRpcErrors: [400, 404, 406, 413, 415],
  },
] as const satisfies readonly ApiRoute[];

/** The methods one path answers, for 405 responses' Allow header. */
export function allowedMethods(path: string): HttpMethod[] {
  return API_ROUTES.filter((route) => route.path === path).map((route) => route.method);
}
