import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId, parseJsonBody } from "@/lib/http";
import { editNote } from "@/lib/notes/edits";
import { agentAuthor } from "@/lib/revisions/author";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { ZEditNoteSchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

// POST /api/notes/[id]/edits – targeted edits (append, replace_text, sections, blocks by id, title, tags), all or nothing; If-Match optional
export const POST = withAuth<{ id: string }>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const { operations } = await parseJsonBody(req, ZEditNoteSchema);
  const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
  const { note, version } = await editNote(db, { id, userId: user.userId, operations, ifVersion, author: agentAuthor("api", user) });
  return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
});

export const GET = methodNotAllowed("/api/notes/{id}/edits");
export const PUT = methodNotAllowed("/api/notes/{id}/edits");
export const PATCH = methodNotAllowed("/api/notes/{id}/edits");
export const DELETE = methodNotAllowed("/api/notes/{id}/edits");
export const OPTIONS = answerOptions("/api/notes/{id}/edits");
