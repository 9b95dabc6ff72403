import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { checkDatabase } from "@/lib/db/health";
import { AppError, jsonResponse, MESSAGES, toErrorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

// GET /api/health – for load balancers: whether this instance's database answers (no token, no data)
export async function GET(req: Request): Promise<Response> {
  try {
    await checkDatabase();
    return jsonResponse({ status: "ok" });
  } catch (err) {
    return toErrorResponse(
      new AppError("SERVICE_UNAVAILABLE", { userMessage: MESSAGES.unavailable, fields: { status: "unavailable" }, headers: { "Retry-After": "1" }, cause: err }),
      req,
    );
  }
}

export const POST = methodNotAllowed("/api/health");
export const PUT = methodNotAllowed("/api/health");
export const PATCH = methodNotAllowed("/api/health");
export const DELETE = methodNotAllowed("/api/health");
export const OPTIONS = answerOptions("/api/health");
