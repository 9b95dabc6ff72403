import { defineOperation } from "@/lib/operations/operation";
import { followChanges } from "@/lib/changes/queries";
import { ZChangesQuerySchema, ZChangesResponseSchema } from "@/lib/changes/schemas";

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
  mcp: {
    tool: "recent_changes",
    title: "Follow changes",
    description:
      "What changed in your notes and tags since a cursor, in commit order — the way to stay in sync without listing again. First call it without since: it answers no changes and the current cursor; pass that cursor as since next time, and each answer's cursor after that. Each change: entity (note or tag), action (notes: created, updated, deleted to the trash, restored, purged; tags: created, updated = renamed, deleted), id, version (a note's, after the change) and at. Example: {\"since\": \"42\"} → {\"changes\": [{\"entity\": \"note\", \"action\": \"updated\", \"id\": \"…\", \"version\": 7, \"at\": \"…\"}], \"cursor\": \"43\", \"hasMore\": false}. hasMore: call again at once. wait (seconds, up to 30): when nothing changed yet, wait for the next change. limit: 1 to 500 (default 100). A cursor older than the changes kept fails: list again and start from a new cursor.",
    readOnly: true,
  },
  // A long poll ends when the REST client goes away.
  run: ({ userId, db, req }, { query }) => followChanges(db, { userId, ...query, signal: req?.signal }),
});
