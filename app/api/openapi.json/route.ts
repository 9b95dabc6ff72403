import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { requestOrigin } from "@/lib/auth/authenticate";
import { withAuth } from "@/lib/auth/with-auth";
import { getEnv } from "@/lib/env";
import { jsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

// GET /api/openapi.json – OpenAPI 3.1 document from the route table's zod schemas
export const GET = withAuth(async ({ req }) => jsonResponse(buildOpenApiDocument(getEnv().APP_URL ?? requestOrigin(req))));

export const POST = methodNotAllowed("/api/openapi.json");
export const PUT = methodNotAllowed("/api/openapi.json");
export const PATCH = methodNotAllowed("/api/openapi.json");
export const DELETE = methodNotAllowed("/api/openapi.json");
