import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

// GET /api/me – the account the token acts for (a cheap way for an agent to check its token)
export const GET = withAuth(async ({ user }) => jsonResponse({ userId: user.userId, email: user.email }));

export const POST = methodNotAllowed("/api/me");
export const PUT = methodNotAllowed("/api/me");
export const PATCH = methodNotAllowed("/api/me");
export const DELETE = methodNotAllowed("/api/me");
export const OPTIONS = answerOptions("/api/me");
