import { z } from "zod";
import { API_ROUTES, type ApiRequestHeader, type ApiResponse, type ApiResponseHeader, type ApiRoute } from "@/lib/api/routes";
import { SESSION_TOKEN_HEADER } from "@/lib/auth/authenticate";
import { API_NAME, API_VERSION } from "@/lib/api/meta";

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: { type: "string" },
    details: { type: "object", description: "Validation failures: zod's flattened issues (formErrors, fieldErrors)." },
    email: { type: "string", description: "The verified email, on USER_NOT_FOUND." },
  },
};

const REQUEST_HEADERS: Record<ApiRequestHeader, JsonSchema> = {
  "If-Match": {
    description:
      "Write only if the note is still at this version: the ETag of your last read (e.g. \"v3\"), or * for any. A stale or unrecognised value is a 412 with the current note; nothing is written.",
    schema: { type: "string" },
  },
  "Idempotency-Key": {
    description:
      "Makes a retry safe: the same key from the same user within 24 hours returns the first 201 response instead of creating again; with a different body it is a 422. 1 to 255 printable ASCII characters.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
};

const RESPONSE_HEADERS: Record<ApiResponseHeader, JsonSchema> = {
  ETag: { description: "The note's version as a strong ETag, for If-Match.", schema: { type: "string", example: '"v3"' } },
  "Idempotent-Replayed": {
    description: "\"true\" when this is the stored first response of a repeated Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

const MARKDOWN_CONTENT = {
  "text/markdown": { schema: { type: "string", description: "The note as Markdown: the title as the first `# ` heading, then the body." } },
};

function isApiResponse(value: z.ZodType | ApiResponse): value is ApiResponse {
  return !("_zod" in value);
}

function response(status: number, spec: z.ZodType | null | ApiResponse): JsonSchema {
  const { body, description, markdown, headers }: ApiResponse = spec && isApiResponse(spec) ? spec : { body: spec };
  const error = status >= 400;
  const content: Record<string, JsonSchema> = {};
  if (body) content["application/json"] = { schema: toSchema(body, "output") };
  else if (error) content["application/json"] = { schema: ERROR_SCHEMA };
  if (markdown) Object.assign(content, MARKDOWN_CONTENT);
  return {
    description: description ?? (error ? "Error" : body ? "Success" : "No content"),
    ...(headers?.length ? { headers: Object.fromEntries(headers.map((name) => [name, RESPONSE_HEADERS[name]])) } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

const COMMON_ERRORS = {
  400: "Invalid query parameters, JSON body or id",
  401: "Missing, invalid or expired session token, or no account for the verified email",
  500: "Server configuration error",
} as const;

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
  for (const [status, description] of Object.entries(COMMON_ERRORS)) {
    responses[status] ??= { description, content: { "application/json": { schema: ERROR_SCHEMA } } };
  }
  return {
    summary: route.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(route.body, "input") } } } } : {}),
    responses,
  };
}

/** OpenAPI 3.1 document built from the route table and its zod schemas. */
export function buildOpenApiDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of API_ROUTES as readonly ApiRoute[]) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: API_NAME,
      version: API_VERSION,
      description:
        "Notes and tags per user. Every request carries a short-lived session token from the identity service. Notes read and write as BlockNote JSON or Markdown; writes take If-Match against a note's ETag, creates an Idempotency-Key; /api/mcp serves the same operations over the Model Context Protocol.",
    },
    servers: [{ url: serverUrl }],
    security: [{ sessionToken: [] }],
    components: { securitySchemes: { sessionToken: { type: "apiKey", in: "header", name: SESSION_TOKEN_HEADER } } },
    paths,
  };
}
