import { allowedMethods } from "@/lib/api/routes";
import { methodNotAllowedError, toErrorResponse } from "@/lib/errors";

/**
 * A 405 handler for a path of the route table. Next.js answers unexported
 * methods with an empty 405; route files export this instead so the answer is
 * JSON with an Allow header.
 */
export function methodNotAllowed(path: string) {
  const allowed = allowedMethods(path);
  return async (req: Request): Promise<Response> => toErrorResponse(methodNotAllowedError(req.method, allowed), req);
}

/**
 * OPTIONS for a path of the route table: 204 with an Allow header naming the
 * methods it answers (HEAD with GET, and OPTIONS). Next.js's automatic OPTIONS
 * would list every exported method, the 405 handlers above included.
 */
export function answerOptions(path: string) {
  const methods = allowedMethods(path);
  const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  return async (): Promise<Response> => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } });
}
