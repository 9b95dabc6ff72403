import { AppError, toErrorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

// Any other /api path: a JSON 404 rather than the HTML not-found page.
async function notFound(req: Request): Promise<Response> {
  return toErrorResponse(new AppError("NO_ROUTE", { args: [req.method, new URL(req.url).pathname] }), req);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
