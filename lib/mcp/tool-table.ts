import type { Operation, McpOnlyOperation } from "@/lib/operations/operation";
import { uploadAttachmentFromArgumentsOperation } from "@/lib/operations/attachments";
import { listChangesOperation } from "@/lib/operations/changes";
import { createNoteOperation, deleteNoteOperation, editNoteOperation, getNoteOperation, searchNotesOperation, updateNoteOperation } from "@/lib/operations/notes";
import { getRevisionOperation, listRevisionsOperation, restoreRevisionOperation } from "@/lib/operations/revisions";
import { createTagOperation, deleteTagOperation, listTagsOperation, renameTagOperation } from "@/lib/operations/tags";
import { deleteNoteForeverOperation, listTrashOperation, restoreNoteOperation } from "@/lib/operations/trash";
import type { ToolOperation } from "@/lib/mcp/tools";

/**
 * The MCP tools, in the order tools/list gives them: each an operation of the
 * REST table (lib/api/routes.ts) with its `mcp` name and description, or an
 * operation MCP alone offers (`mcpOnly`: its arguments or its answer have no
 * REST form). tests/api/operation-table.test.ts holds the two tables to each other.
 */
export const MCP_TOOLS: readonly ToolOperation[] = (
  [
    searchNotesOperation,
    getNoteOperation,
    createNoteOperation,
    updateNoteOperation,
    editNoteOperation,
    deleteNoteOperation,
    listRevisionsOperation,
    getRevisionOperation,
    restoreRevisionOperation,
    listTrashOperation,
    restoreNoteOperation,
    deleteNoteForeverOperation,
    listTagsOperation,
    createTagOperation,
    renameTagOperation,
    deleteTagOperation,
    listChangesOperation,
    uploadAttachmentFromArgumentsOperation,
  ] satisfies readonly (Operation | McpOnlyOperation)[]
).map((op) => {
  if (!op.mcp) throw new Error("An operation in the MCP table needs its tool's name and description");
  return op as ToolOperation;
});
