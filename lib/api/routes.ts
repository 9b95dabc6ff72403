import { z } from "zod";
import {
  ZCreateNoteSchema,
  ZListNotesQuerySchema,
  ZNoteListResponseSchema,
  ZNoteResponseSchema,
  ZUpdateNoteSchema,
} from "@/lib/notes/schemas";
import { ZCreateTagSchema, ZTagListResponseSchema, ZTagResponseSchema } from "@/lib/tags/schemas";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type ApiRoute = {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/notes/{id}`. */
  path: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Status → response body schema (null: no body). */
  responses: Record<number, z.ZodType | null>;
};

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
    description: "Create a note.",
    body: ZCreateNoteSchema,
    responses: { 201: ZNoteResponseSchema },
  },
  {
    method: "GET",
    path: "/api/notes/{id}",
    description: "Fetch one note.",
    responses: { 200: ZNoteResponseSchema, 404: null },
  },
  {
    method: "PATCH",
    path: "/api/notes/{id}",
    description: "Update a note with a partial body; tagIds replaces its tags.",
    body: ZUpdateNoteSchema,
    responses: { 200: ZNoteResponseSchema, 404: null },
  },
  {
    method: "DELETE",
    path: "/api/notes/{id}",
    description: "Delete a note.",
    responses: { 204: null, 404: null },
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
    description: "Create a tag; names are unique per user, case-insensitively.",
    body: ZCreateTagSchema,
    responses: { 201: ZTagResponseSchema, 409: null },
  },
  {
    method: "DELETE",
    path: "/api/tags/{id}",
    description: "Delete a tag and remove it from your notes.",
    responses: { 204: null, 404: null },
  },
] as const satisfies readonly ApiRoute[];

/** The methods one path answers, for 405 responses' Allow header. */
export function allowedMethods(path: string): HttpMethod[] {
  return API_ROUTES.filter((route) => route.path === path).map((route) => route.method);
}
