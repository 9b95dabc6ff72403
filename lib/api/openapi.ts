import { z } from "zod";
import { API_ROUTES, type ApiRoute } from "@/lib/api/routes";
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
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    responses[status] = schema
      ? { description: "Success", content: { "application/json": { schema: toSchema(schema, "output") } } }
      : { description: Number(status) < 300 ? "No content" : "Error", ...(Number(status) >= 400 ? { content: { "application/json": { schema: ERROR_SCHEMA } } } : {}) };
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
      description: "Notes and tags per user. Every request carries a short-lived session token from the identity service.",
    },
    servers: [{ url: serverUrl }],
    security: [{ sessionToken: [] }],
    components: { securitySchemes: { sessionToken: { type: "apiKey", in: "header", name: SESSION_TOKEN_HEADER } } },
    paths,
  };
}
