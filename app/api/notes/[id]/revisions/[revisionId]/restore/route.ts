import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId } from "@/lib/http";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { agentAuthor } from "@/lib/revisions/author";
import { restoreRevision } from "@/lib/revisions/mutations";

export const dynamic = "force-dynamic";

// POST /api/notes/[id]/revisions/[revisionId]/restore – put the note back as it was at a revision (itself a new revision); If-Match guards it
export const POST = withAuth<{ id: string; revisionId: string }>(async ({ req, params, user, db }) => {
  const noteId = parseId(params.id, MESSAGES.invalidNoteId);
  const revisionId = parseId(params.revisionId, MESSAGES.invalidRevisionId);
  const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
  const { note, version } = await restoreRevision(db, { noteId, revisionId, userId: user.userId, author: agentAuthor("api", user), ifVersion });
  return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
});

export const GET = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}/restore");
export const PUT = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}/restore");
export const PATCH = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}/restore");
export const DELETE = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}/restore");
export const OPTIONS = answerOptions("/api/notes/{id}/revisions/{revisionId}/restore");
