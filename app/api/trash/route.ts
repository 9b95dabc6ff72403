import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";
import { parseQuery } from "@/lib/http";
import { emptyTrash } from "@/lib/trash/mutations";
import { listTrash } from "@/lib/trash/queries";
import { ZListTrashQuerySchema } from "@/lib/trash/schemas";

export const dynamic = "force-dynamic";

// GET /api/trash – a page of the user's deleted notes, most recently deleted first, with the total and a cursor
export const GET = withAuth(async ({ req, user, db }) => {
  const query = parseQuery(req, ZListTrashQuerySchema);
  return jsonResponse(await listTrash(db, { userId: user.userId, ...query }));
});

// DELETE /api/trash – empty the trash: every deleted note gone for good
export const DELETE = withAuth(async ({ user, db }) => {
  await emptyTrash(db, { userId: user.userId });
  return new Response(null, { status: 204 });
});

export const POST = methodNotAllowed("/api/trash");
export const PUT = methodNotAllowed("/api/trash");
export const PATCH = methodNotAllowed("/api/trash");
export const OPTIONS = answerOptions("/api/trash");
