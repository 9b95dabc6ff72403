import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";
import { parseJsonBody } from "@/lib/http";
import { idempotent, readIdempotencyKey } from "@/lib/idempotency/idempotency";
import { insertTag } from "@/lib/tags/mutations";
import { listTags } from "@/lib/tags/queries";
import { ZCreateTagSchema } from "@/lib/tags/schemas";

export const dynamic = "force-dynamic";

// GET /api/tags – the user's tags by name
export const GET = withAuth(async ({ user, db }) => jsonResponse({ tags: await listTags(db, { userId: user.userId }) }));

// POST /api/tags – create a tag; an Idempotency-Key makes retries safe
export const POST = withAuth(async ({ req, user, db }) => {
  const key = readIdempotencyKey(req);
  const input = await parseJsonBody(req, ZCreateTagSchema);
  return idempotent(db, {
    userId: user.userId,
    scope: "POST /api/tags",
    key,
    request: input,
    perform: async (tx) => ({ status: 201, body: { tag: await insertTag(tx, { userId: user.userId, input }) } }),
  });
});

export const PUT = methodNotAllowed("/api/tags");
export const PATCH = methodNotAllowed("/api/tags");
export const DELETE = methodNotAllowed("/api/tags");
export const OPTIONS = answerOptions("/api/tags");
