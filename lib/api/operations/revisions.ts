import { defineOperation } from "@/lib/api/operation";
import { CONVERSION_OVER_BUDGET, CONVERSION_QUEUE_FULL, noteModified } from "@/lib/api/responses";
import { jsonResponse } from "@/lib/errors";
import { markdownResponse, preferredMediaType } from "@/lib/http";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { ZNoteFormatQuerySchema, ZNoteResponseSchema } from "@/lib/notes/schemas";
import { agentAuthor } from "@/lib/db/author";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions, revisionMarkdown } from "@/lib/revisions/queries";
import { ZListRevisionsQuerySchema, ZRevisionListResponseSchema, ZRevisionResponseSchema } from "@/lib/revisions/schemas";

const REVISION_IDS = { id: "INVALID_NOTE_ID", revisionId: "INVALID_REVISION_ID" } as const;
const NO_REVISION = { body: null, description: "No such note, or no such revision of it" };

export const listRevisionsOperation = defineOperation({
  method: "GET",
  path: "/api/notes/{id}/revisions",
  operationId: "listRevisions",
  description:
    "A note's history, newest first (the first is the note as it is now): every write that made a new version, with who made it — an agent through the REST API (api) or MCP (mcp), the person in the browser (browser), or an operator's script (system). A restore, an agent's write and a person's save are each a revision of their own; only a person's consecutive browser saves in one editor session (one visit to the note in one tab), with no restore or other writer between, join one revision, while each comes less than 2 minutes after the one before and less than 5 minutes after the first. So a new version begins after a 2-minute pause, when the person comes back to the note, after 5 minutes of editing, and after another writer or a restore; every state that stood for 2 minutes, and every state just before another author's write or a restore, is kept. Page with cursor.",
  ids: { id: "INVALID_NOTE_ID" },
  query: ZListRevisionsQuerySchema,
  responses: { 200: ZRevisionListResponseSchema, 404: null },
  mcp: { tool: "list_revisions" },
  run: async ({ params, query, user, db }) => jsonResponse(await listRevisions(db, { noteId: params.id, userId: user.userId, ...query })),
});

export const getRevisionOperation = defineOperation({
  method: "GET",
  path: "/api/notes/{id}/revisions/{revisionId}",
  operationId: "getRevision",
  description:
    "The note as it was at one revision: title, content (block ids included), contentText, tags and pin, exactly as stored at that version whichever of them the write changed; as Markdown with Accept: text/markdown or ?format=markdown.",
  ids: REVISION_IDS,
  query: ZNoteFormatQuerySchema,
  responses: {
    200: { body: ZRevisionResponseSchema, markdown: true },
    404: NO_REVISION,
    503: { body: null, description: `As Markdown: ${CONVERSION_QUEUE_FULL}` },
  },
  mcp: { tool: "get_revision" },
  run: async ({ req, params, query: { format }, user, db }) => {
    const markdown = format ? format === "markdown" : preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
    const { revision } = await getRevisionOrThrow(db, { noteId: params.id, revisionId: params.revisionId, userId: user.userId });
    const vary = { Vary: "Accept" };
    if (markdown) return markdownResponse(await revisionMarkdown(revision), { headers: vary });
    return jsonResponse({ revision }, { headers: vary });
  },
});

export const restoreRevisionOperation = defineOperation({
  method: "POST",
  path: "/api/notes/{id}/revisions/{revisionId}/restore",
  operationId: "restoreRevision",
  description:
    "Put the note back as it was at a revision: its title, content, contentText, pin and the tags it had that still exist. The restore is always a revision of its own, marked with restoredFrom (earlier ones stay, and no later save is folded into it), so restoring the revision before it undoes it. With If-Match, only if the note is still at that version.",
  ids: REVISION_IDS,
  headers: ["If-Match"],
  responses: {
    200: { body: ZNoteResponseSchema, headers: ["ETag"] },
    404: NO_REVISION,
    412: noteModified("written"),
    422: { body: null, description: `Converting the content ${CONVERSION_OVER_BUDGET}; nothing was written` },
    503: { body: null, description: CONVERSION_QUEUE_FULL },
  },
  mcp: { tool: "restore_revision" },
  run: async ({ req, params, user, db }) => {
    const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
    const { note, version } = await restoreRevision(db, { noteId: params.id, revisionId: params.revisionId, userId: user.userId, author: agentAuthor("api", user), ifVersion });
    return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
  },
});
