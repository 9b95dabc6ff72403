import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { agentAuthor } from "@/lib/revisions/author";
import { jsonTextResponse } from "@/lib/errors";
import { parseJsonBody, parseQuery } from "@/lib/http";
import { idempotent, readIdempotencyKey } from "@/lib/idempotency/idempotency";
import { noteEtag } from "@/lib/notes/etag";
import { insertNote, resolveMarkdownBody } from "@/lib/notes/mutations";
import { listNotesJson } from "@/lib/notes/queries";
import { ZCreateNoteSchema, ZListNotesQuerySchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

// GET /api/notes – a page of the user's notes, with search, tag filter, total and a cursor to the next page
export const GET = withAuth(async ({ req, user, db }) => {
  const query = parseQuery(req, ZListNotesQuerySchema);
  const page = await listNotesJson(db, { userId: user.userId, ...query });
  // The notes arrive serialized by the database; they are passed through, not parsed and re-encoded.
  const cursor = page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : "";
  const notes = page.noteJsons.flatMap((json, index) => (index === 0 ? [json] : [",", json]));
  return jsonTextResponse(['{"notes":[', ...notes, `],"total":${page.total}${cursor}}`]);
});

// POST /api/notes – create a note (content as BlockNote JSON or Markdown); an Idempotency-Key makes retries safe
export const POST = withAuth(async ({ req, user, db }) => {
  const key = readIdempotencyKey(req);
  const request = await parseJsonBody(req, ZCreateNoteSchema);
  // Markdown is converted before the create's transaction opens.
  const input = await resolveMarkdownBody(request);
  return idempotent(db, {
    userId: user.userId,
    scope: "POST /api/notes",
    key,
    request,
    author: agentAuthor("api", user),
    perform: async (tx) => {
      const { note, version } = await insertNote(tx, { userId: user.userId, input });
      return { status: 201, body: { note }, headers: { ETag: noteEtag(version) } };
    },
  });
});

export const PUT = methodNotAllowed("/api/notes");
export const PATCH = methodNotAllowed("/api/notes");
export const DELETE = methodNotAllowed("/api/notes");
export const OPTIONS = answerOptions("/api/notes");
