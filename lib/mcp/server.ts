import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { API_VERSION } from "@/lib/operations/meta";
import { AppError, fieldDetails, INVALID_TOKEN_ADVICE, toErrorParts } from "@/lib/errors";
import { MAX_BODY_BYTES, unknownNameMessage } from "@/lib/http/parse";
import { toJsonSchema } from "@/lib/operations/json-schema";
import { parseNoteEtag } from "@/lib/notes/etag";
import type { Caller } from "@/lib/operations/operation";
import { registerNoteResources } from "@/lib/mcp/resources";
import { runTool, toolInput, type ToolOperation, type ToolOutput } from "@/lib/mcp/tools";

const INSTRUCTIONS =
  `Notes and tags of the signed-in user, shared with people who edit the same notes in a browser. Read a note with get_note (Markdown by default) and pass its version as ifVersion to update_note or delete_note: a note someone changed meanwhile is never overwritten; the error then carries the current note to merge with. ` +
  `An HTTP 401 "Invalid session token" (WWW-Authenticate: error="invalid_token") means the token expired or was revoked. ${INVALID_TOKEN_ADVICE}.`;

/**
 * The schema handed to the SDK for a tool: it advertises the tool's own JSON
 * Schema in tools/list but lets any arguments through, because the tool
 * validates with the REST schemas and must fail with the REST texts
 * ("Invalid request body" and its details), not the SDK's.
 */
function advertisedSchema(input: z.ZodObject) {
  // Closed, as the tool is: an argument it does not name fails the call (refuseUnknownArguments).
  return z.looseObject({}).meta({ ...toJsonSchema(input, "input", "draft-7"), additionalProperties: false });
}

/** Each tool's arguments and their advertised form, made once per table. */
const ADVERTISED = new WeakMap<readonly ToolOperation[], Map<ToolOperation, { input: z.ZodObject; advertised: ReturnType<typeof advertisedSchema> }>>();

function advertised(tools: readonly ToolOperation[]) {
  let made = ADVERTISED.get(tools);
  if (!made) {
    made = new Map(tools.map((op) => {
      const input = toolInput(op);
      return [op, { input, advertised: advertisedSchema(input) }];
    }));
    ADVERTISED.set(tools, made);
  }
  return made;
}

function toResult(output: ToolOutput): CallToolResult {
  const json = { type: "text" as const, text: JSON.stringify(output.json) };
  if ("markdown" in output) {
    return { content: [{ type: "text", text: output.markdown }, json], structuredContent: { ...output.json, markdown: output.markdown } };
  }
  return { content: [json], structuredContent: output.json };
}

/**
 * A failure as a tool error carrying what the REST API would answer: the same
 * `error` text first, then the whole body (details, the current note of a
 * 412) with its HTTP status. The shared mapper also does the logging.
 */
function toToolError(err: unknown): CallToolResult {
  // The same mapping as a REST answer's: status, body and headers of one AppError.
  const { status, headers, body } = toErrorParts(err);
  const etag = headers.ETag;
  // A 503 (database unavailable) says when to try again, as its Retry-After header does over REST.
  const retryAfter = headers["Retry-After"];
  const detail: Record<string, unknown> = {
    status,
    ...body,
    ...(etag ? { version: parseNoteEtag(etag), etag } : {}),
    ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}),
  };
  const content: CallToolResult["content"] = [{ type: "text", text: String(body.error) }];
  if (Object.keys(detail).length > 2) content.push({ type: "text", text: JSON.stringify(detail) });
  return { isError: true, content, structuredContent: detail };
}

/** An argument the tool's schema does not name fails the call, naming it and those it takes (a misspelt one would otherwise be dropped). */
function refuseUnknownArguments(name: string, input: z.ZodObject, args: Record<string, unknown>): void {
  const accepted = Object.keys(input.shape);
  const unknown = Object.keys(args).filter((name) => !accepted.includes(name));
  if (unknown.length === 0) return;
  const message = unknownNameMessage("argument", accepted);
  throw new AppError("UNKNOWN_ARGUMENTS", {
    args: [name, unknown, accepted],
    fields: fieldDetails(Object.fromEntries(unknown.map((name) => [name, [message]]))),
  });
}

/** An MCP server whose tools act for one authenticated user: each tool runs its operation for them, as an agent through MCP. */
function createNotesMcpServer(caller: Caller, tools: readonly ToolOperation[]): McpServer {
  const server = new McpServer({ name: "notes", title: "Notes", version: API_VERSION }, { instructions: INSTRUCTIONS });
  for (const [op, { input, advertised: inputSchema }] of advertised(tools)) {
    const tool = op.mcp;
    server.registerTool(
      tool.tool,
      {
        title: tool.title,
        description: tool.description,
        inputSchema,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly ?? false,
          destructiveHint: tool.destructive ?? false,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>) => {
        try {
          refuseUnknownArguments(tool.tool, input, args);
          return toResult(await runTool(op, args, caller));
        } catch (err) {
          return toToolError(err);
        }
      },
    );
  }
  registerNoteResources(server, caller);
  // Stateless, with no stream to send on: the lists never change during a connection, so no list_changed is promised.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}

/**
 * Answers one Streamable HTTP request, statelessly: a server and transport per
 * request, JSON responses rather than SSE streams, so any instance of a
 * serverless deployment can take any request.
 */
export async function handleMcpRequest(req: Request, rest: Caller, tools: readonly ToolOperation[]): Promise<Response> {
  // The tools see no HTTP request (its Accept or If-None-Match are the transport's), and write as MCP.
  const caller: Caller = { userId: rest.userId, email: rest.email, db: rest.db, author: { ...rest.author, kind: "mcp" } };
  const server = createNotesMcpServer(caller, tools);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
}
