import { z } from "zod";
import { API_NAME, API_VERSION } from "@/lib/api-meta";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { defineOperation, definePublicOperation, type Operation } from "@/lib/api/operation";
import { appOrigin } from "@/lib/auth/origin";
import { checkDatabase } from "@/lib/db/health";
import { AppError, jsonResponse } from "@/lib/errors";

/**
 * GET /api: every operation of `table()`, the table this one is part of
 * (lib/api/routes.ts makes it, passing itself: the table imports this file,
 * not the other way round).
 */
export function apiIndexOperation(table: () => readonly Operation[]): Operation {
  return defineOperation({
    method: "GET",
    path: "/api",
    operationId: "getApiIndex",
    description: "This index of every endpoint.",
    responses: { 200: z.object({ name: z.string(), version: z.string(), endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })) }) },
    run: async () => {
      const endpoints = table().map(({ method, path, description }) => ({ method, path, description }));
      return jsonResponse({ name: API_NAME, version: API_VERSION, endpoints });
    },
  });
}

/** GET /api/openapi.json: the OpenAPI document of `table()`, as apiIndexOperation. */
export function openApiDocumentOperation(table: () => readonly Operation[]): Operation {
  return defineOperation({
    method: "GET",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    description: "OpenAPI 3.1 description of this API.",
    responses: { 200: z.object({ openapi: z.string() }).loose() },
    run: async () => jsonResponse(buildOpenApiDocument(appOrigin(), table())),
  });
}

export const getHealthOperation = definePublicOperation({
  method: "GET",
  path: "/api/health",
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
  run: async ({ user }) => jsonResponse({ userId: user.userId, email: user.email }),
});
