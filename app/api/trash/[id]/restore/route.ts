import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId } from "@/lib/http";
import { noteEtag } from "@/lib/notes/etag";
import { restoreTrashedNote } from "@/lib/trash/mutations";

export const dynamic = "force-dynamic";

// POST /api/trash/[id]/restore – bring a deleted note back with the same id, content, version and the tags that still exist
export const POST = withAuth<{ id: string }>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const { note, version } = await restoreTrashedNote(db, { id, userId: user.userId });
  return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
});

export const GET = methodNotAllowed("/api/trash/{id}/restore");
export const PUT = methodNotAllowed("/api/trash/{id}/restore");
export const PATCH = methodNotAllowed("/api/trash/{id}/restore");
export const DELETE = methodNotAllowed("/api/trash/{id}/restore");
export const OPTIONS = answerOptions("/api/trash/{id}/restore");
