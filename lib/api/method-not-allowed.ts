import { allowedMethods } from "@/lib/api/routes";
import { jsonResponse } from "@/lib/errors";

/**
 * A 405 handler for a path of the route table. Next.js answers unexported
 * methods with an empty 405; route files export this instead so the answer is
 * JSON with an Allow header.
 */
export function methodNotAllowed(path: string) {
  const allow = allowedMethods(path).join(", ");
  return async (req: Request): Promise<Response> =>
    jsonResponse({ error: `Method ${req.method} not allowed; use ${allow}` }, { status: 405, headers: { Allow: allow } });
}
