import { defineOperation } from "@/lib/api/operation";
import { jsonResponse } from "@/lib/errors";
import { noteEtag } from "@/lib/notes/etag";
import { ZNoteResponseSchema } from "@/lib/notes/schemas";
import { deleteTrashedNote, emptyTrash, restoreTrashedNote } from "@/lib/trash/mutations";
import { listTrash } from "@/lib/trash/queries";
import { ZListTrashQuerySchema, ZTrashListResponseSchema } from "@/lib/trash/schemas";

export const listTrashOperation = defineOperation({
  method: "GET",
  path: "/api/trash",
  operationId: "listTrash",
  description: "List your deleted notes, most recently deleted first, each with when it leaves the trash for good; page with limit and offset or cursor.",
  query: ZListTrashQuerySchema,
  responses: { 200: ZTrashListResponseSchema },
  mcp: { tool: "list_trash" },
  run: async ({ query, user, db }) => jsonResponse(await listTrash(db, { userId: user.userId, ...query })),
});

export const emptyTrashOperation = defineOperation({
  method: "DELETE",
  path: "/api/trash",
  operationId: "emptyTrash",
  description: "Empty the trash: every deleted note is gone for good.",
  responses: { 204: null },
  run: async ({ user, db }) => {
    await emptyTrash(db, { userId: user.userId });
    return new Response(null, { status: 204 });
  },
});

export const restoreNoteOperation = defineOperation({
  method: "POST",
  path: "/api/trash/{id}/restore",
  operationId: "restoreNote",
  description: "Restore a deleted note with the same id, content and version, and the tags it had that still exist.",
  ids: { id: "INVALID_NOTE_ID" },
  responses: {
    200: { body: ZNoteResponseSchema, headers: ["ETag"] },
    404: { body: null, description: "No note with this id in your trash (never deleted, already restored, or expired)" },
    409: { body: null, description: "A note with this id exists" },
  },
  mcp: { tool: "restore_note" },
  run: async ({ params, user, db }) => {
    const { note, version } = await restoreTrashedNote(db, { id: params.id, userId: user.userId });
    return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
  },
});

export const deleteNoteForeverOperation = defineOperation({
  method: "DELETE",
  path: "/api/trash/{id}",
  operationId: "deleteNoteForever",
  description: "Remove one deleted note from the trash for good.",
  ids: { id: "INVALID_NOTE_ID" },
  responses: { 204: null, 404: null },
  mcp: { tool: "delete_note_forever" },
  run: async ({ params, user, db }) => {
    await deleteTrashedNote(db, { id: params.id, userId: user.userId });
    return new Response(null, { status: 204 });
  },
});
