import { z } from "zod";
import {
  ZCreateNoteSchema,
  ZListNotesQuerySchema,
  ZNoteFormatQuerySchema,
  ZNoteListResponseSchema,
  ZNoteModifiedResponseSchema,
  ZNoteResponseSchema,
  ZUpdateNoteSchema,
} from "@/lib/notes/schemas";
import { ZCreateTagSchema, ZTagListResponseSchema, ZTagResponseSchema } from "@/lib/tags/schemas";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Request headers a route reads beyond the session token (described in lib/api/openapi.ts). */
export type ApiRequestHeader = "If-Match" | "Idempotency-Key";
/** Response headers a route may send. */
export type ApiResponseHeader = "ETag" | "Idempotent-Replayed";

/** A response described beyond its JSON body. */
export type ApiResponse = {
  /** JSON body schema (null: no body, or the shared error body for 4xx/5xx). */
  body: z.ZodType | null;
  description?: string;
  /** Also offered as `text/markdown` (Accept header or ?format=markdown). */
  markdown?: boolean;
  headers?: readonly ApiResponseHeader[];
};

export type ApiRoute = {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/notes/{id}`. */
  path: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  headers?: readonly ApiRequestHeader[];
  /** Status → response body schema (null: no body), or a fuller ApiResponse. */
  responses: Record<number, z.ZodType | null | ApiResponse>;
};

const ZMcpMessageSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: "A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …)." });

/**
 * Every API route, in one table: the route files implement exactly these
 * (a test holds them to it), GET /api lists them and /api/openapi.json
 * describes them from the same schemas that validate requests.
 */
export const API_ROUTES = [
  {
    method: "GET",
    path: "/api",
    description: "This index of every endpoint.",
    responses: { 200: z.object({ name: z.string(), version: z.string(), endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })) }) },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    description: "OpenAPI 3.1 description of this API.",
    responses: { 200: z.object({ openapi: z.string() }).loose() },
  },
  {
    method: "GET",
    path: "/api/me",
    description: "The account your token acts for.",
    responses: { 200: z.object({ userId: z.string(), email: z.string() }) },
  },
  {
    method: "GET",
    path: "/api/notes",
    description: "List your notes, most recently updated first; filter with search and tagId, page with limit and offset.",
    query: ZListNotesQuerySchema,
    responses: { 200: ZNoteListResponseSchema },
  },
  {
    method: "POST",
    path: "/api/notes",
    description: "Create a note; the body as BlockNote JSON (content) or Markdown (contentMarkdown). An Idempotency-Key makes retries safe.",
    body: ZCreateNoteSchema,
    headers: ["Idempotency-Key"],
    responses: {
      201: { body: ZNoteResponseSchema, headers: ["ETag", "Idempotent-Replayed"] },
      422: { body: null, description: "The Idempotency-Key was already used with a different request body" },
    },
  },
  {
    method: "GET",
    path: "/api/notes/{id}",
    description: "Fetch one note, as JSON or as Markdown (Accept: text/markdown or ?format=markdown), with its version as the ETag.",
    query: ZNoteFormatQuerySchema,
    responses: { 200: { body: ZNoteResponseSchema, markdown: true, headers: ["ETag"] }, 404: null },
  },
  {
    method: "PATCH",
    path: "/api/notes/{id}",
    description: "Update a note with a partial body (content or contentMarkdown); tagIds replaces its tags. With If-Match, only if the note is still at that version.",
    body: ZUpdateNoteSchema,
    headers: ["If-Match"],
    responses: {
      200: { body: ZNoteResponseSchema, headers: ["ETag"] },
      404: null,
      412: { body: ZNoteModifiedResponseSchema, description: "The note changed since the If-Match version; nothing was written", headers: ["ETag"] },
    },
  },
  {
    method: "DELETE",
    path: "/api/notes/{id}",
    description: "Delete a note. With If-Match, only if the note is still at that version.",
    headers: ["If-Match"],
    responses: {
      204: null,
      404: null,
      412: { body: ZNoteModifiedResponseSchema, description: "The note changed since the If-Match version; nothing was deleted", headers: ["ETag"] },
    },
  },
  {
    method: "GET",
    path: "/api/tags",
    description: "List your tags by name.",
    responses: { 200: ZTagListResponseSchema },
  },
  {
    method: "POST",
    path: "/api/tags",
    description: "Create a tag; names are unique per user, case-insensitively. An Idempotency-Key makes retries safe.",
    body: ZCreateTagSchema,
    headers: ["Idempotency-Key"],
    responses: {
      201: { body: ZTagResponseSchema, headers: ["Idempotent-Replayed"] },
      409: null,
      422: { body: null, description: "The Idempotency-Key was already used with a different request body" },
    },
  },
  {
    method: "DELETE",
    path: "/api/tags/{id}",
    description: "Delete a tag and remove it from your notes.",
    responses: { 204: null, 404: null },
  },
  {
    method: "POST",
    path: "/api/mcp",
    description:
      "Model Context Protocol endpoint (Streamable HTTP, stateless, JSON responses): tools search_notes, get_note, create_note, update_note, delete_note, list_tags, create_tag.",
    body: ZMcpMessageSchema,
    responses: {
      200: { body: z.looseObject({ jsonrpc: z.literal("2.0") }), description: "The JSON-RPC response; tool failures are results with isError and the REST error text" },
      202: { body: null, description: "Notification accepted" },
    },
  },
] as const satisfies readonly ApiRoute[];

/** The methods one path answers, for 405 responses' Allow header. */
export function allowedMethods(path: string): HttpMethod[] {
  return API_ROUTES.filter((route) => route.path === path).map((route) => route.method);
}
