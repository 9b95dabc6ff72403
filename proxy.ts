import { NextResponse, type NextRequest } from "next/server";
import { isCrossOrigin } from "@/lib/auth/origin";
import { getEnv } from "@/lib/env";
import { crossOriginError, toErrorParts } from "@/lib/errors";

/**
 * Server actions answer another site's page with a JSON 403. Next.js's own
 * check compares Origin with the request's Host (which the caller chooses) and
 * fails with a 500; this one compares with APP_URL, the one trusted origin.
 */
export function proxy(request: NextRequest): NextResponse {
  if (request.method === "POST" && isCrossOrigin(request.headers, getEnv())) {
    const { status, headers, body } = toErrorParts(crossOriginError(), request);
    return NextResponse.json(body, { status, headers });
  }
  return NextResponse.next();
}

// Only server action calls (they name the action in this header): nothing else pays for the proxy.
export const config = {
  matcher: [{ source: "/:path*", has: [{ type: "header", key: "next-action" }] }],
};
