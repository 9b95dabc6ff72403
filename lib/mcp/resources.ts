import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { AppError, toErrorParts } from "@/lib/errors";
import { parseId } from "@/lib/http/parse";
import type { Caller } from "@/lib/operations/operation";
import { getNoteMarkdownOrThrow } from "@/lib/notes/body";

/** How many of the most recently updated notes resources/list offers. */
const RECENT_NOTES = 50;

/** MCP's code for a resource that does not exist (the specification's -32002). */
const RESOURCE_NOT_FOUND = -32002;

const noteUri = (id: string) => `note://${id}`;

/**
 * Each note as a resource, note://{id}, read as its Markdown (the same as
 * get_note's), for clients that attach resources to a conversation; the most
 * recently updated notes are listed. The token's user only, as every tool.
 */
export function registerNoteResources(server: McpServer, { userId, db }: Caller): void {
  server.registerResource(
    "note",
    new ResourceTemplate("note://{id}", {
      list: async () => {
        // The list's order (most recently updated first, ties by id), reading only what a listing shows.
        const notes = await db.note.findMany({
          where: { userId },
          orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
          take: RECENT_NOTES,
          select: { id: true, title: true, updatedAt: true },
        });
        return {
          resources: notes.map((note) => ({
            uri: noteUri(note.id),
            name: note.title,
            title: note.title,
            mimeType: "text/markdown",
            annotations: { lastModified: note.updatedAt.toISOString() },
          })),
        };
      },
    }),
    {
      title: "Note",
      description: `A note as Markdown, title as the first \`# \` heading, by id (note://{id}); resources/list gives your ${RECENT_NOTES} most recently updated notes.`,
      mimeType: "text/markdown",
    },
    async (uri, { id }) => {
      try {
        const noteId = parseId(typeof id === "string" ? id : "", "INVALID_NOTE_ID");
        const { markdown } = await getNoteMarkdownOrThrow(db, { id: noteId, userId });
        return { contents: [{ uri: noteUri(noteId), mimeType: "text/markdown", text: markdown }] };
      } catch (err) {
        throw toResourceError(err, uri.href);
      }
    },
  );
}

/**
 * A failure as the JSON-RPC error resources/read answers with: MCP's code for
 * it, the REST text as its message (McpError would prefix it), and the REST
 * status in its data. The shared mapper also does the logging.
 */
function toResourceError(err: unknown, uri: string): Error & { code: number; data: unknown } {
  const { status, body } = toErrorParts(err);
  const code = status === 404 ? RESOURCE_NOT_FOUND : err instanceof AppError && status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return Object.assign(new Error(String(body.error)), { code, data: { uri, status } });
}
