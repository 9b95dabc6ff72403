import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { MESSAGES } from "@/lib/errors";
import { parseId } from "@/lib/http";
import { deleteTag } from "@/lib/tags/mutations";

export const dynamic = "force-dynamic";

// DELETE /api/tags/[id] – delete a tag and remove it from notes
export const DELETE = withAuth<{ id: string }>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidTagId);
  await deleteTag(db, { id, userId: user.userId });
  return new Response(null, { status: 204 });
});

export const GET = methodNotAllowed("/api/tags/{id}");
export const POST = methodNotAllowed("/api/tags/{id}");
export const PUT = methodNotAllowed("/api/tags/{id}");
export const PATCH = methodNotAllowed("/api/tags/{id}");
