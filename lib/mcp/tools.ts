import { z } from "zod";
import { parseOperationInput, parseWith, type Answer, type Caller, type McpTool, type OperationCore, type OperationInput } from "@/lib/operations/operation";
import type { InvalidIdCode } from "@/lib/http/parse";
import { parseNoteEtag, versionFromIfMatch } from "@/lib/notes/etag";

/** An operation an MCP tool offers (lib/mcp/tool-table.ts lists them). */
export type ToolOperation = OperationCore & { mcp: McpTool };

/** A tool's answer: JSON, or a Markdown document with JSON facts about it. */
export type ToolOutput = { json: Record<string, unknown> } | { markdown: string; json: Record<string, unknown> };

const ID_DESCRIPTIONS: Record<InvalidIdCode, string> = {
  INVALID_NOTE_ID: "The note's id.",
  INVALID_TAG_ID: "The tag's id (from list_tags).",
  INVALID_REVISION_ID: "The revision's id (from list_revisions).",
  INVALID_ATTACHMENT_ID: "The attachment's id.",
};

/** The version a write must find, as REST's If-Match: by number, or by the ETag value itself. */
const ZConditionSchema = z
  .object({
    ifVersion: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: "Write only if the note is still at this version (from get_note); otherwise the call fails with \"Note was modified\" and the current note." }),
    etag: z.string().optional().meta({ description: "The same condition as an ETag value, e.g. \"v3\" in quotes, or * for any version." }),
  })
  .refine((args) => args.ifVersion === undefined || args.etag === undefined, {
    message: "Give ifVersion or etag, not both",
    path: ["etag"],
  });

/**
 * A tool's arguments, as tools/list advertises them: the operation's ids, its
 * condition (ifVersion or etag, for If-Match), its query and its body, flat,
 * from the schemas REST validates with.
 */
export function toolInput(op: ToolOperation): z.ZodObject {
  const ids = Object.fromEntries(Object.entries(op.ids ?? {}).map(([name, code]) => [name, z.guid().meta({ description: ID_DESCRIPTIONS[code] })]));
  const query = Object.fromEntries(
    Object.entries(op.query?.shape ?? {}).map(([name, schema]) => {
      const described = op.mcp.describe?.[name];
      return [name, described ? (schema as z.ZodType).meta({ description: described }) : schema];
    }),
  );
  const parts = [ids, op.condition ? ZConditionSchema.shape : {}, query].filter((part) => Object.keys(part).length > 0);
  // A tool that takes only a body (or only a query) advertises that schema itself.
  if (parts.length === 0 && op.body instanceof z.ZodObject) return op.body;
  if (parts.length === 1 && parts[0] === query && !op.body && op.query && !op.mcp.describe) return op.query;
  const body = op.body instanceof z.ZodObject ? op.body.shape : {};
  return z.object(Object.assign({}, ...parts, body));
}

/**
 * A call's arguments as the operation's input, parsed as REST parses a
 * request, in the same order and with the same failures: the ids, the query,
 * the body (the remaining arguments), then the condition.
 */
function toolArguments(op: ToolOperation, given: Record<string, unknown>): OperationInput {
  const args = { ...op.mcp.defaults, ...given };
  const idNames = Object.keys(op.ids ?? {});
  const queryNames = Object.keys(op.query?.shape ?? {});
  const conditionNames = op.condition ? ["ifVersion", "etag"] : [];
  const pick = (keep: (name: string) => boolean) => Object.fromEntries(Object.entries(args).filter(([name]) => keep(name)));
  return parseOperationInput(op, {
    ids: args,
    query: pick((name) => queryNames.includes(name)),
    // The remaining arguments.
    body: pick((name) => ![...idNames, ...queryNames, ...conditionNames].includes(name)),
    condition: () => {
      const { ifVersion, etag } = parseWith(ZConditionSchema, { ifVersion: args.ifVersion, etag: args.etag }, "INVALID_BODY");
      return etag === undefined ? ifVersion : versionFromIfMatch(etag);
    },
  });
}

/**
 * What the tool answers: what REST answers. Its JSON body with the facts of
 * its ETag header (`version`, `etag`); a Markdown answer's text with its
 * facts; and where REST answers 204, no body, the operation's data (which note
 * or tag went).
 */
function toolOutput(op: ToolOperation, data: unknown): ToolOutput {
  const answer = op.answer(data) as Answer | Response;
  if (answer instanceof Response) throw new Error(`${op.mcp.tool}: an answer only HTTP can give`);
  const etag = answer.headers?.ETag;
  const etagFacts = etag ? { version: parseNoteEtag(etag), etag } : {};
  if (answer.markdown !== undefined) return { markdown: answer.markdown, json: answer.facts ?? etagFacts };
  const body = answer.json !== undefined ? JSON.parse(typeof answer.json === "string" ? answer.json : answer.json.join("")) : (answer.body ?? data);
  return { json: { ...(body as Record<string, unknown>), ...etagFacts } };
}

/** Runs a tool call as its operation, for the caller the MCP request authenticated (as an agent through MCP). */
export async function runTool(op: ToolOperation, args: Record<string, unknown>, caller: Caller): Promise<ToolOutput> {
  const input = toolArguments(op, args);
  return toolOutput(op, await op.run(caller, input));
}
