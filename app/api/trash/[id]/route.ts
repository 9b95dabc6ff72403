import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { MESSAGES } from "@/lib/errors";
import { parseId } from "@/lib/http";
import { deleteTrashedNote } from "@/lib/trash/mutations";

export const dynamic = "force-dynamic";

// DELETE /api/trash/[id] – remove one deleted note for good
export const DELETE = withAuth<{ id: string }>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  await deleteTrashedNote(db, { id, userId: user.userId });
  return new Response(null, { status: 204 });
});

export const GET = methodNotAllowed("/api/trash/{id}");
export const POST = methodNotAllowed("/api/trash/{id}");
export const PUT = methodNotAllowed("/api/trash/{id}");
export const PATCH = methodNotAllowed("/api/trash/{id}");
export const OPTIONS = answerOptions("/api/trash/{id}");
