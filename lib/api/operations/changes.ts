import { defineOperation } from "@/lib/api/operation";
import { followChanges } from "@/lib/changes/queries";
import { ZChangesQuerySchema, ZChangesResponseSchema } from "@/lib/changes/schemas";
import { jsonResponse } from "@/lib/errors";

export const listChangesOperation = defineOperation({
  method: "GET",
  path: "/api/changes",
  operationId: "listChanges",
  description:
    "What changed in your notes and tags, in the order it was committed: notes created, updated, deleted (to the trash), restored and purged; tags created, renamed and deleted. Call once without since for the current cursor (after listing what you need), then pass each answer's cursor as since: you see every change exactly once, including changes committed concurrently, instead of listing again. With wait (seconds, up to 30) the answer waits for the next change when there is none yet (long poll).",
  query: ZChangesQuerySchema,
  responses: {
    200: ZChangesResponseSchema,
    410: { body: null, description: "The cursor is older than the changes kept (CHANGES_RETENTION_DAYS): list again and follow from a new cursor" },
  },
  mcp: { tool: "recent_changes" },
  run: async ({ req, query, user, db }) => jsonResponse(await followChanges(db, { userId: user.userId, ...query, signal: req.signal })),
});
