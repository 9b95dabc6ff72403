import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { withAuth } from "@/lib/auth/with-auth";
import { appOrigin } from "@/lib/auth/origin";
import { jsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

// GET /api/openapi.json – OpenAPI 3.1 document from the route table's zod schemas
export const GET = withAuth(async () => jsonResponse(buildOpenApiDocument(appOrigin())));

export const POST = methodNotAllowed("/api/openapi.json");
export const PUT = methodNotAllowed("/api/openapi.json");
export const PATCH = methodNotAllowed("/api/openapi.json");
export const DELETE = methodNotAllowed("/api/openapi.json");
export const OPTIONS = answerOptions("/api/openapi.json");
