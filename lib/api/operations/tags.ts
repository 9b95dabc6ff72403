import { defineOperation } from "@/lib/api/operation";
import { KEY_REUSED } from "@/lib/api/responses";
import { jsonResponse } from "@/lib/errors";
import { idempotent } from "@/lib/idempotency/idempotency";
import { agentAuthor } from "@/lib/db/author";
import { deleteTag, insertTag, renameTag } from "@/lib/tags/mutations";
import { listTags } from "@/lib/tags/queries";
import { ZCreateTagSchema, ZRenameTagSchema, ZTagListResponseSchema, ZTagResponseSchema } from "@/lib/tags/schemas";

export const listTagsOperation = defineOperation({
  method: "GET",
  path: "/api/tags",
  operationId: "listTags",
  description: "List your tags by name.",
  responses: { 200: ZTagListResponseSchema },
  mcp: { tool: "list_tags" },
  run: async ({ user, db }) => jsonResponse({ tags: await listTags(db, { userId: user.userId }) }),
});

export const createTagOperation = defineOperation({
  method: "POST",
  path: "/api/tags",
  operationId: "createTag",
  description: "Create a tag; names are unique per user, case-insensitively. An Idempotency-Key makes retries safe.",
  body: ZCreateTagSchema,
  headers: ["Idempotency-Key"],
  responses: {
    201: { body: ZTagResponseSchema, headers: ["Idempotent-Replayed"] },
    409: null,
    422: { body: null, description: KEY_REUSED },
  },
  mcp: { tool: "create_tag" },
  run: async ({ body: input, idempotencyKey: key, user, db }) =>
    idempotent(db, {
      userId: user.userId,
      // Stored with each key: a new scope would forget the keys already given.
      scope: "POST /api/tags",
      key,
      request: input,
      perform: async (tx) => ({ status: 201, body: { tag: await insertTag(tx, { userId: user.userId, input }) } }),
    }),
});

export const renameTagOperation = defineOperation({
  method: "PATCH",
  path: "/api/tags/{id}",
  operationId: "renameTag",
  description:
    "Rename a tag; the same rules as a create, so a name you already have (in any case) is a 409. Notes keep the tag; each note carrying it gets a new version (its ETag changes, so If-Match with the ETag from before is a 412) and is listed as updated in the change feed.",
  ids: { id: "INVALID_TAG_ID" },
  body: ZRenameTagSchema,
  responses: { 200: ZTagResponseSchema, 404: null, 409: null },
  mcp: { tool: "rename_tag" },
  run: async ({ params, body: input, user, db }) =>
    jsonResponse({ tag: await renameTag(db, { id: params.id, userId: user.userId, author: agentAuthor("api", user), input }) }),
});

export const deleteTagOperation = defineOperation({
  method: "DELETE",
  path: "/api/tags/{id}",
  operationId: "deleteTag",
  description:
    "Delete a tag and remove it from your notes; each note that carried it gets a new version (its ETag changes, so If-Match with the ETag from before is a 412) and is listed as updated in the change feed.",
  ids: { id: "INVALID_TAG_ID" },
  responses: { 204: null, 404: null },
  mcp: { tool: "delete_tag" },
  run: async ({ params, user, db }) => {
    await deleteTag(db, { id: params.id, userId: user.userId, author: agentAuthor("api", user) });
    return new Response(null, { status: 204 });
  },
});
