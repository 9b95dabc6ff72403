import { z } from "zod";
import { API_NAME, API_VERSION } from "@/lib/operations/meta";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { defineOperation, definePublicOperation, type Operation } from "@/lib/operations/operation";
import { API_INDEX_PATH, HEALTH_PATH } from "@/lib/http/paths";
import { appOrigin } from "@/lib/auth/origin";
import { checkDatabase } from "@/lib/db/health";
import { AppError, jsonResponse, jsonTextResponse } from "@/lib/errors";

/**
 * GET /api: every operation of `table()`, the table this one is part of
 * (lib/api/routes.ts makes it, passing itself: the table imports this file,
 * not the other way round).
 */
export function apiIndexOperation(table: () => readonly Operation[]): Operation {
  return defineOperation({
    method: "GET",
    path: API_INDEX_PATH,
    operationId: "getApiIndex",
    description: "This index of every endpoint.",
    responses: { 200: z.object({ name: z.string(), version: z.string(), endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })) }) },
    run: async () => ({ name: API_NAME, version: API_VERSION, endpoints: table().map(({ method, path, description }) => ({ method, path, description })) }),
  });
}

/**
 * GET /api/openapi.json: the OpenAPI document of `table()`, as
 * apiIndexOperation, without a token: it holds no one's data, and a client
 * generator or an agent reads it before it has a token. Built once per origin.
 */
export function openApiDocumentOperation(table: () => readonly Operation[]): Operation {
  const documents = new Map<string, string>();
  return definePublicOperation({
    method: "GET",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    description: "OpenAPI 3.1 description of this API; no token needed.",
    responses: { 200: z.object({ openapi: z.string() }).loose() },
    run: async () => {
      const origin = appOrigin();
      let json = documents.get(origin);
      if (json === undefined) {
        json = JSON.stringify(buildOpenApiDocument(documentServerUrl(origin), table()));
        documents.set(origin, json);
      }
      return jsonTextResponse(json);
    },
  });
}

/**
 * The server URL the document names: the app's public origin, or `/` (where
 * the document was read from) when that is this machine's own, which is right
 * on this machine only and which linters flag.
 */
export function documentServerUrl(origin: string): string {
  const { hostname } = new URL(origin);
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "127.0.0.1" || hostname === "[::1]" ? "/" : origin;
}

export const getHealthOperation = definePublicOperation({
  method: "GET",
  path: HEALTH_PATH,
  description: "For load balancers, without a token: 200 when this instance's database answers within 2 s, else 503.",
  responses: {
    200: z.object({ status: z.literal("ok") }),
    503: { body: null, description: "The database did not answer; the body's status is \"unavailable\"" },
  },
  run: async () => {
    try {
      await checkDatabase();
    } catch (err) {
      throw new AppError("SERVICE_UNAVAILABLE", { fields: { status: "unavailable" }, headers: { "Retry-After": "1" }, cause: err });
    }
    return jsonResponse({ status: "ok" });
  },
});

export const getMeOperation = defineOperation({
  method: "GET",
  path: "/api/me",
  operationId: "getMe",
  description: "The account your token acts for.",
  responses: { 200: z.object({ userId: z.string(), email: z.string() }) },
  run: async ({ userId, email }) => ({ userId, email }),
});
