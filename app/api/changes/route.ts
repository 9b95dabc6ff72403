import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { followChanges } from "@/lib/changes/queries";
import { ZChangesQuerySchema } from "@/lib/changes/schemas";
import { jsonResponse } from "@/lib/errors";
import { parseQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/changes – the account's changes after a cursor, in commit order; with wait, a long poll
export const GET = withAuth(async ({ req, user, db }) => {
  const query = parseQuery(req, ZChangesQuerySchema);
  return jsonResponse(await followChanges(db, { userId: user.userId, ...query, signal: req.signal }));
});

export const POST = methodNotAllowed("/api/changes");
export const PUT = methodNotAllowed("/api/changes");
export const PATCH = methodNotAllowed("/api/changes");
export const DELETE = methodNotAllowed("/api/changes");
export const OPTIONS = answerOptions("/api/changes");
