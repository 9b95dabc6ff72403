import { defineOperation } from "@/lib/operations/operation";
import { KEY_REUSED } from "@/lib/operations/responses";
import { deleteTag, insertTag, renameTag } from "@/lib/tags/mutations";
import { listTags } from "@/lib/tags/queries";
import { ZCreateTagSchema, ZRenameTagSchema, ZTagListResponseSchema, ZTagResponseSchema } from "@/lib/tags/schemas";

export const listTagsOperation = defineOperation({
  method: "GET",
  path: "/api/tags",
  operationId: "listTags",
  description: "List your tags by name.",
  responses: { 200: ZTagListResponseSchema },
  mcp: {
    tool: "list_tags",
    title: "List tags",
    description: "List your tags by name, with the ids that create_note, update_note and search_notes take.",
    readOnly: true,
  },
  run: async ({ userId, db }) => ({ tags: await listTags(db, { userId }) }),
});

export const createTagOperation = defineOperation({
  method: "POST",
  path: "/api/tags",
  operationId: "createTag",
  callers: ["token", "session"],
  description: "Create a tag; names are unique per user, case-insensitively. An Idempotency-Key makes retries safe.",
  body: ZCreateTagSchema,
  headers: ["Idempotency-Key"],
  responses: {
    201: { body: ZTagResponseSchema, headers: ["Idempotent-Replayed"] },
    409: null,
    422: { body: null, description: KEY_REUSED },
  },
  mcp: {
    tool: "create_tag",
    title: "Create a tag",
    description: "Create a tag. Names are unique per user, case-insensitively.",
  },
  create: {
    scope: "POST /api/tags",
    write: async (tx, { userId }, { body: input }) => ({ tag: await insertTag(tx, { userId, input }) }),
  },
});

export const renameTagOperation = defineOperation({
  method: "PATCH",
  path: "/api/tags/{id}",
  operationId: "renameTag",
  callers: ["token", "session"],
  description:
    "Rename a tag; the same rules as a create, so a name you already have (in any case) is a 409. Notes keep the tag; each note carrying it gets a new version (its ETag changes, so If-Match with the ETag from before is a 412) and is listed as updated in the change feed.",
  ids: { id: "INVALID_TAG_ID" },
  body: ZRenameTagSchema,
  responses: { 200: ZTagResponseSchema, 404: null, 409: null },
  mcp: {
    tool: "rename_tag",
    title: "Rename a tag",
    description: "Rename a tag; the notes that carry it keep it. Names are unique per user, case-insensitively, as for create_tag.",
  },
  run: async ({ userId, db, author }, { params, body: input }) => ({ tag: await renameTag(db, { id: params.id, userId, author, input }) }),
});

export const deleteTagOperation = defineOperation({
  method: "DELETE",
  path: "/api/tags/{id}",
  operationId: "deleteTag",
  callers: ["token", "session"],
  description:
    "Delete a tag and remove it from your notes; each note that carried it gets a new version (its ETag changes, so If-Match with the ETag from before is a 412) and is listed as updated in the change feed.",
  ids: { id: "INVALID_TAG_ID" },
  responses: { 204: null, 404: null },
  mcp: {
    tool: "delete_tag",
    title: "Delete a tag",
    description: "Delete a tag and take it off every note that carries it; the notes stay.",
    destructive: true,
  },
  run: async ({ userId, db, author }, { params: { id } }) => {
    await deleteTag(db, { id, userId, author });
    return { deleted: id };
  },
});
