import { z } from "zod";
import { defineOperation, httpRequest } from "@/lib/operations/operation";
import { handleMcpRequest } from "@/lib/mcp/server";
import { MCP_TOOLS } from "@/lib/mcp/tool-table";

const ZJsonRpcIdSchema = z.union([z.string(), z.number()]);

const ZMcpMessageSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: ZJsonRpcIdSchema.optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: "A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …)." });

/** A JSON-RPC 2.0 error: how the MCP transport answers a message it cannot take (bad JSON, wrong Accept or Content-Type, too large). */
export const ZJsonRpcErrorSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: ZJsonRpcIdSchema.nullable(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ description: "A JSON-RPC 2.0 error from the MCP transport." });

const ZMcpResponseSchema = z
  .union([
    z.looseObject({ jsonrpc: z.literal("2.0"), id: ZJsonRpcIdSchema, result: z.record(z.string(), z.unknown()) }),
    ZJsonRpcErrorSchema,
  ])
  .meta({ description: "The JSON-RPC response to one request; tool failures are results with isError and the REST error text." });

// POST only: stateless, so there is no server-initiated stream to open with GET and no session to end with DELETE.
export const callMcpOperation = defineOperation({
  method: "POST",
  path: "/api/mcp",
  operationId: "callMcp",
  description: `Model Context Protocol endpoint (Streamable HTTP, stateless, JSON responses): tools ${MCP_TOOLS.map((op) => op.mcp.tool).join(", ")}.`,
  body: z.union([ZMcpMessageSchema, z.array(ZMcpMessageSchema).min(1)]),
  responses: {
    200: {
      body: z.union([ZMcpResponseSchema, z.array(ZMcpResponseSchema)]),
      description: "The JSON-RPC response, or for a batch the array of responses",
    },
    202: { body: null, description: "Notifications or responses only: accepted, nothing to answer" },
    403: { body: null, description: "A browser page of an origin neither the app's own nor in MCP_ALLOWED_ORIGINS" },
  },
  jsonRpcErrors: [400, 404, 406, 413, 415],
  mcpTransport: true,
  // The transport reads the body and answers its own failures as JSON-RPC errors; `body` describes it.
  bodyReadByRun: true,
  run: async (caller) => handleMcpRequest(httpRequest(caller), caller, MCP_TOOLS),
  // JSON-RPC over HTTP: the transport's own response.
  answer: (response) => response,
});
