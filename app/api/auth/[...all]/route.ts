import { getAuth } from "@/lib/auth/auth";
import { jsonResponse, MESSAGES, toErrorResponse } from "@/lib/errors";
import { AuthConfigError } from "@/lib/auth/secret";

export const dynamic = "force-dynamic";

// /api/auth/* – the browser's sign-up, sign-in, sign-out, email verification and password reset (better-auth)
async function handle(req: Request): Promise<Response> {
  try {
    const auth = await getAuth();
    return await auth.handler(req);
  } catch (err) {
    if (err instanceof AuthConfigError) return jsonResponse({ error: MESSAGES.serverConfig }, { status: 500 });
    return toErrorResponse(err);
  }
}

export { handle as GET, handle as POST };
