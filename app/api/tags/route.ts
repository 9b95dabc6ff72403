import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";
import { parseJsonBody } from "@/lib/http";
import { createTag } from "@/lib/tags/mutations";
import { listTags } from "@/lib/tags/queries";
import { ZCreateTagSchema } from "@/lib/tags/schemas";

export const dynamic = "force-dynamic";

// GET /api/tags – the user's tags by name
export const GET = withAuth(async ({ user, db }) => jsonResponse({ tags: await listTags(db, { userId: user.userId }) }));

// POST /api/tags – create a tag
export const POST = withAuth(async ({ req, user, db }) => {
  const input = await parseJsonBody(req, ZCreateTagSchema);
  return jsonResponse({ tag: await createTag(db, { userId: user.userId, input }) }, { status: 201 });
});

export const PUT = methodNotAllowed("/api/tags");
export const PATCH = methodNotAllowed("/api/tags");
export const DELETE = methodNotAllowed("/api/tags");
