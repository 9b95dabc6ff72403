import { defineOperation, type Answer } from "@/lib/operations/operation";
import { noteAnswer } from "@/lib/operations/notes";
import { CONVERSION_OVER_BUDGET, CONVERSION_QUEUE_FULL, noteModified } from "@/lib/operations/responses";
import { preferredMediaType } from "@/lib/http/parse";
import { ZNoteResponseSchema } from "@/lib/notes/schemas";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions, revisionMarkdown } from "@/lib/revisions/queries";
import { ZListRevisionsQuerySchema, ZRevisionFormatQuerySchema, ZRevisionListResponseSchema, ZRevisionResponseSchema } from "@/lib/revisions/schemas";

const REVISION_IDS = { id: "INVALID_NOTE_ID", revisionId: "INVALID_REVISION_ID" } as const;
const NO_REVISION = { body: null, description: "No such note, or no such revision of it" };

export const listRevisionsOperation = defineOperation({
  method: "GET",
  path: "/api/notes/{id}/revisions",
  operationId: "listRevisions",
  callers: ["token", "session"],
  description:
    "A note's history, newest first (the first is the note as it is now): every write that made a new version, with who made it — an agent through the REST API (api) or MCP (mcp), the person in the browser (browser), or an operator's script (system). A restore, an agent's write and a person's save are each a revision of their own; only a person's consecutive browser saves in one editor session (one visit to the note in one tab), with no restore or other writer between, join one revision, while each comes less than 2 minutes after the one before and less than 5 minutes after the first. So a new version begins after a 2-minute pause, when the person comes back to the note, after 5 minutes of editing, and after another writer or a restore; every state that stood for 2 minutes, and every state just before another author's write or a restore, is kept. Page with cursor.",
  ids: { id: "INVALID_NOTE_ID" },
  query: ZListRevisionsQuerySchema,
  responses: { 200: ZRevisionListResponseSchema, 404: null },
  mcp: {
    tool: "list_revisions",
    title: "List a note's history",
    description:
      "A note's revisions, newest first (the first is the note as it is now): each with who made the change — author.kind api (an agent through the REST API), mcp (an agent through MCP, like you), browser (the person) or system — and when. Use it to see what changed and to find a version to restore. limit (1 to 100, default 20); cursor: the previous page's nextCursor.",
    readOnly: true,
  },
  run: ({ userId, db }, { params, query }) => listRevisions(db, { noteId: params.id, userId, ...query }),
});

export const getRevisionOperation = defineOperation({
  method: "GET",
  path: "/api/notes/{id}/revisions/{revisionId}",
  operationId: "getRevision",
  callers: ["token", "session"],
  description:
    "The note as it was at one revision: title, content (block ids included), contentText, tags and pin, exactly as stored at that version whichever of them the write changed; as Markdown with Accept: text/markdown or ?format=markdown.",
  ids: REVISION_IDS,
  query: ZRevisionFormatQuerySchema,
  responses: {
    200: { body: ZRevisionResponseSchema, markdown: true },
    404: NO_REVISION,
    503: { body: null, description: `As Markdown: ${CONVERSION_QUEUE_FULL}` },
  },
  mcp: {
    tool: "get_revision",
    title: "Read a note's revision",
    description: "Read a note as it was at one revision (from list_revisions): as Markdown by default (title as the first `# ` heading), or as JSON with its blocks.",
    readOnly: true,
    describe: { format: "markdown (default): the revision as Markdown, title as the first `# ` heading; json: the revision as the REST API returns it, with its blocks." },
    defaults: { format: "markdown" },
  },
  run: async ({ userId, db, req }, { params, query: { format } }) => {
    // Without a format, REST asks Accept; the rest read JSON.
    const markdown = format ? format === "markdown" : !!req && preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
    const { revision } = await getRevisionOrThrow(db, { noteId: params.id, revisionId: params.revisionId, userId });
    return { revision, ...(markdown ? { markdown: await revisionMarkdown(revision) } : {}) };
  },
  answer: ({ revision, markdown }): Answer => {
    const vary = { Vary: "Accept" };
    if (markdown === undefined) return { status: 200, body: { revision }, headers: vary };
    const { content: _content, contentText: _text, ...facts } = revision;
    return { status: 200, markdown, facts, headers: vary };
  },
});

export const restoreRevisionOperation = defineOperation({
  method: "POST",
  path: "/api/notes/{id}/revisions/{revisionId}/restore",
  operationId: "restoreRevision",
  callers: ["token", "session"],
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
  mcp: {
    tool: "restore_revision",
    title: "Restore a note's revision",
    description:
      "Put a note back as it was at a revision (from list_revisions): title, content and the tags it had that still exist. The restore is itself a new revision, so it can be undone the same way. ifVersion (or etag) makes it happen only if the note is still at that version.",
  },
  run: ({ userId, db, author }, { params, ifVersion }) => restoreRevision(db, { noteId: params.id, revisionId: params.revisionId, userId, author, ifVersion }),
  answer: noteAnswer(200),
});
