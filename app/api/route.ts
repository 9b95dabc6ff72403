import { API_ROUTES } from "@/lib/api/routes";
import { API_NAME, API_VERSION } from "@/lib/api/meta";
import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const endpoints = API_ROUTES.map(({ method, path, description }) => ({ method, path, description }));

// GET /api – the index of every endpoint
export const GET = withAuth(async () => jsonResponse({ name: API_NAME, version: API_VERSION, endpoints }));

export const POST = methodNotAllowed("/api");
export const PUT = methodNotAllowed("/api");
export const PATCH = methodNotAllowed("/api");
export const DELETE = methodNotAllowed("/api");
export const OPTIONS = answerOptions("/api");
