import { defineOperation } from "@/lib/operations/operation";
import { noteAnswer } from "@/lib/operations/notes";
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
  mcp: {
    tool: "list_trash",
    title: "List the trash",
    description:
      "List your deleted notes, most recently deleted first, each with deletedAt and expiresAt (when it is gone for good). limit (1 to 500, default 100) and offset or cursor page through `total`.",
    readOnly: true,
  },
  run: ({ userId, db }, { query }) => listTrash(db, { userId, ...query }),
});

export const emptyTrashOperation = defineOperation({
  method: "DELETE",
  path: "/api/trash",
  operationId: "emptyTrash",
  callers: ["token", "session"],
  description: "Empty the trash: every deleted note is gone for good.",
  responses: { 204: null },
  run: ({ userId, db }) => emptyTrash(db, { userId }),
});

export const restoreNoteOperation = defineOperation({
  method: "POST",
  path: "/api/trash/{id}/restore",
  operationId: "restoreNote",
  callers: ["token", "session"],
  description: "Restore a deleted note with the same id, content and version, and the tags it had that still exist.",
  ids: { id: "INVALID_NOTE_ID" },
  responses: {
    200: { body: ZNoteResponseSchema, headers: ["ETag"] },
    404: { body: null, description: "No note with this id in your trash (never deleted, already restored, or expired)" },
    409: { body: null, description: "A note with this id exists" },
  },
  mcp: {
    tool: "restore_note",
    title: "Restore a deleted note",
    description: "Bring a note back from the trash with the same id, content and version, and the tags it had that still exist.",
  },
  run: ({ userId, db }, { params }) => restoreTrashedNote(db, { id: params.id, userId }),
  answer: noteAnswer(200),
});

export const deleteNoteForeverOperation = defineOperation({
  method: "DELETE",
  path: "/api/trash/{id}",
  operationId: "deleteNoteForever",
  callers: ["token", "session"],
  description: "Remove one deleted note from the trash for good.",
  ids: { id: "INVALID_NOTE_ID" },
  responses: { 204: null, 404: null },
  mcp: {
    tool: "delete_note_forever",
    title: "Delete a note forever",
    description: "Remove a deleted note from the trash for good; it cannot be restored after this.",
    destructive: true,
  },
  run: async ({ userId, db }, { params: { id } }) => {
    await deleteTrashedNote(db, { id, userId });
    return { deleted: id };
  },
});
