import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId, parseJsonBody } from "@/lib/http";
import { agentAuthor } from "@/lib/revisions/author";
import { deleteTag, renameTag } from "@/lib/tags/mutations";
import { ZRenameTagSchema } from "@/lib/tags/schemas";

export const dynamic = "force-dynamic";

// PATCH /api/tags/[id] – rename a tag; names stay unique per user, case-insensitively (409); its notes get new versions
export const PATCH = withAuth<{ id: string }>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidTagId);
  const input = await parseJsonBody(req, ZRenameTagSchema);
  return jsonResponse({ tag: await renameTag(db, { id, userId: user.userId, author: agentAuthor("api", user), input }) });
});

// DELETE /api/tags/[id] – delete a tag and remove it from notes, which get new versions
export const DELETE = withAuth<{ id: string }>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidTagId);
  await deleteTag(db, { id, userId: user.userId, author: agentAuthor("api", user) });
  return new Response(null, { status: 204 });
});

export const GET = methodNotAllowed("/api/tags/{id}");
export const POST = methodNotAllowed("/api/tags/{id}");
export const PUT = methodNotAllowed("/api/tags/{id}");
export const OPTIONS = answerOptions("/api/tags/{id}");
