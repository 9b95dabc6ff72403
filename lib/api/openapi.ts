import { z } from "zod";
import type { ApiRequestHeader, ApiResponse, ApiResponseHeader, ApiRoute } from "@/lib/operations/operation";
import { ZJsonRpcErrorSchema } from "@/lib/api/mcp-endpoint";
import { SESSION_TOKEN_HEADER } from "@/lib/auth/authenticate";
import { API_NAME, API_VERSION } from "@/lib/operations/meta";
import { ERRORS, INVALID_TOKEN_ADVICE } from "@/lib/errors";
import { toJsonSchema, type JsonSchema } from "@/lib/operations/json-schema";

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => toJsonSchema(schema, io);

const ERROR_BODY: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: { type: "string" },
    details: { type: "object", description: "Validation failures: zod's flattened issues (formErrors, fieldErrors)." },
    email: { type: "string", description: "The verified email, on USER_NOT_FOUND." },
    operation: { type: "integer", description: "On a targeted edit that failed: the index of the operation that did not apply." },
    expectedCount: { type: "integer", description: "On a replace_text whose count did not match: the count it expected." },
    foundCount: { type: "integer", description: "On a replace_text whose count did not match: the matches found." },
  },
};

/** Reusable schemas, referenced from the operations. */
const COMPONENT_SCHEMAS = {
  Error: ERROR_BODY,
  JsonRpcError: toSchema(ZJsonRpcErrorSchema, "output"),
};
const ERROR_SCHEMA: JsonSchema = { $ref: "#/components/schemas/Error" };
const JSON_RPC_ERROR_SCHEMA: JsonSchema = { $ref: "#/components/schemas/JsonRpcError" };

const REQUEST_HEADERS: Record<ApiRequestHeader, JsonSchema> = {
  "If-Match": {
    description:
      "Write only if the note is still at this version: the ETag of your last read (e.g. \"v3\"), or * for any. A stale or unrecognised value is a 412 with the current note; nothing is written.",
    schema: { type: "string" },
  },
  "If-None-Match": {
    description: "The ETag you hold (e.g. \"v3\"): while the note is still at that version the answer is a 304 with no body.",
    schema: { type: "string" },
  },
  "Idempotency-Key": {
    description:
      "Makes a retry safe: the same key from the same user within 24 hours returns the first 201 response instead of creating again; with a different body it is a 422. 1 to 255 printable ASCII characters.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
};

const RESPONSE_HEADERS: Record<ApiResponseHeader, JsonSchema> = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "string", example: "1" } },
  ETag: { description: "The note's version as a strong ETag, for If-Match.", schema: { type: "string", example: '"v3"' } },
  "Idempotent-Replayed": {
    description: "\"true\" when this is the stored first response of a repeated Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
  RateLimit: {
    description: 'What is left of the user\'s request budget (draft-ietf-httpapi-ratelimit-headers): `"api";r=<requests left>;t=<seconds until the window ends>`.',
    schema: { type: "string", example: '"api";r=598;t=41' },
  },
  "RateLimit-Policy": {
    description: 'The user\'s request budget: `"api";q=<requests>;w=<window in seconds>`.',
    schema: { type: "string", example: '"api";q=600;w=60' },
  },
  "WWW-Authenticate": {
    description: `The challenge of a 401: \`${ERRORS.MISSING_TOKEN.headers["WWW-Authenticate"]}\` without a token; with a token that failed, also \`error="invalid_token"\` and an \`error_description\`: ${INVALID_TOKEN_ADVICE}.`,
    schema: { type: "string", example: ERRORS.INVALID_TOKEN.headers["WWW-Authenticate"] },
  },
};

const MARKDOWN_CONTENT = {
  "text/markdown": { schema: { type: "string", description: "The note as Markdown: the title as the first `# ` heading, then the body." } },
};

function isApiResponse(value: z.ZodType | ApiResponse): value is ApiResponse {
  return !("_zod" in value);
}

function response(status: number, spec: z.ZodType | null | ApiResponse): JsonSchema {
  const { body, description, markdown, binary, headers }: ApiResponse = spec && isApiResponse(spec) ? spec : { body: spec };
  const error = status >= 400;
  const content: Record<string, JsonSchema> = {};
  if (body) content["application/json"] = { schema: toSchema(body, "output") };
  else if (error) content["application/json"] = { schema: ERROR_SCHEMA };
  for (const type of binary ?? []) content[type] = { schema: { type: "string", format: "binary" } };
  if (markdown) Object.assign(content, MARKDOWN_CONTENT);
  return {
    description: description ?? (error ? "Error" : body ? "Success" : "No content"),
    ...(headers?.length ? { headers: Object.fromEntries(headers.map((name) => [name, RESPONSE_HEADERS[name]])) } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

const hasPathParams = (route: ApiRoute) => route.path.includes("{");

const BODY_CODES = new Set<string>(["INVALID_JSON", "INVALID_BODY", "BODY_TOO_LARGE", "FILE_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"]);

/**
 * Whether a failure of the error table can answer this operation. Codes tied
 * to a request feature apply where the route has it; any other code, one
 * added later included, applies by its status, and to every route when the
 * status is not tied to a feature either (401, 429, 500, 503, …): a new entry
 * in lib/errors/index.ts's ERRORS is declared without touching this file; one
 * whose `means` is null only where an operation declares it.
 */
function errorApplies(code: string, status: number, route: ApiRoute): boolean {
  // The MCP transport reads its own body and answers those failures itself (JSON-RPC errors).
  if (route.jsonRpcErrors?.includes(status) && BODY_CODES.has(code)) return false;
  switch (code) {
    case "IDEMPOTENCY_KEY_REUSED":
      return route.headers?.includes("Idempotency-Key") ?? false;
    case "INVALID_JSON":
    case "INVALID_BODY":
      return route.body !== undefined;
  }
  switch (status) {
    case 404:
      return hasPathParams(route);
    case 409:
      return 409 in route.responses;
    case 412:
      return route.headers?.includes("If-Match") ?? false;
    case 413:
    case 415:
      return route.body !== undefined || route.rawBody !== undefined;
    case 422:
      return route.body !== undefined;
    default:
      return true;
  }
}

/** The error responses an operation can answer, from the error table, merged with the route's own. */
function errorResponses(route: ApiRoute): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const [code, { status, means }] of Object.entries(ERRORS)) {
    if (means === null || !errorApplies(code, status, route)) continue;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(means)) list.push(means);
    byStatus.set(status, list);
  }
  return byStatus;
}

const RETRY_STATUSES = new Set([429, 503]);

/** Retry-After on both; a 429 of the per-user limit also says which budget was spent. */
function retryHeaders(status: number): JsonSchema {
  const names: ApiResponseHeader[] = status === 429 ? ["Retry-After", "RateLimit", "RateLimit-Policy"] : ["Retry-After"];
  return Object.fromEntries(names.map((name) => [name, RESPONSE_HEADERS[name]]));
}

function operationId(route: ApiRoute): string {
  if (route.operationId) return route.operationId;
  const words = route.path.replace(/[{}]/g, "").split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join("");
}

function operation(route: ApiRoute): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: match[1], in: "path", required: true, schema: { type: "string", format: "uuid" } });
  }
  if (route.query) {
    for (const [name, field] of Object.entries(route.query.shape)) {
      const schema = toSchema(field as z.ZodType, "input");
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required: false, description, schema: rest });
    }
  }
  for (const name of route.headers ?? []) {
    parameters.push({ name, in: "header", required: false, ...REQUEST_HEADERS[name] });
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status] = response(Number(status), spec);
  }
  const errors = errorResponses(route);
  for (const status of route.jsonRpcErrors ?? []) if (!errors.has(status)) errors.set(status, []);
  for (const [status, meanings] of [...errors].sort(([a], [b]) => a - b)) {
    const jsonRpc = route.jsonRpcErrors?.includes(status) ?? false;
    const text = [...meanings, ...(jsonRpc ? ["the MCP transport refused the message (JSON-RPC error)"] : [])].join("; ");
    const declared = responses[status];
    // A route's own declaration (the 412 with the current note, the 422 of a reused key) is the more exact one.
    if (declared && declared.description !== "Error") continue;
    // A public route (the health check) takes no token, so it is never a 401 or a user's 429.
    if (route.public && (status === 401 || status === 429)) continue;
    responses[status] = {
      description: text[0]!.toUpperCase() + text.slice(1),
      ...(RETRY_STATUSES.has(status) ? { headers: retryHeaders(status) } : {}),
      ...(status === 401 ? { headers: { "WWW-Authenticate": RESPONSE_HEADERS["WWW-Authenticate"] } } : {}),
      content: { "application/json": { schema: jsonRpc ? { anyOf: [JSON_RPC_ERROR_SCHEMA, ERROR_SCHEMA] } : ERROR_SCHEMA } },
    };
  }
  // A route's own 429 or 503 (the conversion queue's) says when to come back, like the table's.
  for (const status of RETRY_STATUSES) {
    const declared = responses[status];
    if (declared && !declared.headers) declared.headers = retryHeaders(status);
  }
  return {
    operationId: operationId(route),
    summary: route.description,
    ...(route.public ? { security: [] } : {}),
    ...(route.mcpTransport ? { security: [{ sessionToken: [] }, { bearerToken: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(route.body, "input") } } } } : {}),
    ...(route.rawBody
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: Object.fromEntries(route.rawBody.types.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
          },
        }
      : {}),
    responses,
  };
}

/** OpenAPI 3.1 document of `routes` (the operation table, lib/api/routes.ts), built from their zod schemas. */
export function buildOpenApiDocument(serverUrl: string, routes: readonly ApiRoute[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: API_NAME,
      version: API_VERSION,
      description:
        "Notes and tags per user. Every request carries a short-lived session token from the identity service. Notes read and write as BlockNote JSON or Markdown; writes take If-Match against a note's ETag, creates an Idempotency-Key; /api/mcp serves the same operations over the Model Context Protocol. Every failure is JSON with an `error` text (the Error schema). A method a path does not list is a 405 with an Allow header naming those it does; OPTIONS is a 204 with that Allow header; any other path under /api, except the browser's sign-in routes under /api/auth, is a 404.",
    },
    servers: [{ url: serverUrl }],
    security: [{ sessionToken: [] }],
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        sessionToken: { type: "apiKey", in: "header", name: SESSION_TOKEN_HEADER },
        bearerToken: { type: "http", scheme: "bearer", description: "The same session token, as MCP clients send it (/api/mcp only)" },
      },
    },
    paths,
  };
}
