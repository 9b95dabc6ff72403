import type { Operation } from "@/lib/operations/operation";
import { apiIndexOperation, getHealthOperation, getMeOperation, openApiDocumentOperation } from "@/lib/api/index-operations";
import { getAttachmentOperation, uploadAttachmentOperation } from "@/lib/operations/attachments";
import { listChangesOperation } from "@/lib/operations/changes";
import { callMcpOperation } from "@/lib/api/mcp-endpoint";
import {
  createNoteOperation,
  deleteNoteOperation,
  editNoteOperation,
  getNoteOperation,
  listNotesOperation,
  updateNoteOperation,
} from "@/lib/operations/notes";
import { getRevisionOperation, listRevisionsOperation, restoreRevisionOperation } from "@/lib/operations/revisions";
import { createTagOperation, deleteTagOperation, listTagsOperation, renameTagOperation } from "@/lib/operations/tags";
import { deleteNoteForeverOperation, emptyTrashOperation, listTrashOperation, restoreNoteOperation } from "@/lib/operations/trash";

/** GET /api and GET /api/openapi.json, which describe this table. */
export const getApiIndexOperation = apiIndexOperation(() => API_ROUTES);
export const getOpenApiDocumentOperation = openApiDocumentOperation(() => API_ROUTES);

/**
 * Every API operation, in one table, each defined once in lib/operations (the
 * API's own index and the MCP endpoint in lib/api):
 * the route files export what lib/operations/operation.ts's routeHandlers derives
 * from them, GET /api lists them in this order, /api/openapi.json describes
 * them from the same schemas that validate requests, and those marked `mcp`
 * name the MCP tool that does the same (tests/api/operation-table.test.ts
 * holds all of these to the table).
 */
export const API_ROUTES: readonly Operation[] = [
  getApiIndexOperation,
  getOpenApiDocumentOperation,
  getHealthOperation,
  getMeOperation,
  listNotesOperation,
  createNoteOperation,
  getNoteOperation,
  updateNoteOperation,
  editNoteOperation,
  deleteNoteOperation,
  listRevisionsOperation,
  getRevisionOperation,
  restoreRevisionOperation,
  listTrashOperation,
  emptyTrashOperation,
  restoreNoteOperation,
  deleteNoteForeverOperation,
  listTagsOperation,
  createTagOperation,
  renameTagOperation,
  deleteTagOperation,
  uploadAttachmentOperation,
  getAttachmentOperation,
  listChangesOperation,
  callMcpOperation,
];
