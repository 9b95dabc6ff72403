import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId, parseQuery } from "@/lib/http";
import { listRevisions } from "@/lib/revisions/queries";
import { ZListRevisionsQuerySchema } from "@/lib/revisions/schemas";

export const dynamic = "force-dynamic";

// GET /api/notes/[id]/revisions – the note's history, newest first, each change with who made it (agent or person)
export const GET = withAuth<{ id: string }>(async ({ req, params, user, db }) => {
  const noteId = parseId(params.id, MESSAGES.invalidNoteId);
  const query = parseQuery(req, ZListRevisionsQuerySchema);
  return jsonResponse(await listRevisions(db, { noteId, userId: user.userId, ...query }));
});

export const POST = methodNotAllowed("/api/notes/{id}/revisions");
export const PUT = methodNotAllowed("/api/notes/{id}/revisions");
export const PATCH = methodNotAllowed("/api/notes/{id}/revisions");
export const DELETE = methodNotAllowed("/api/notes/{id}/revisions");
export const OPTIONS = answerOptions("/api/notes/{id}/revisions");
