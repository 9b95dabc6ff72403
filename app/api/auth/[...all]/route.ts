import { AUTH_BASE_PATH } from "@/lib/http/paths";
import { AUTH_PATHS, CLIENT_ADDRESS_HEADER, getAuth } from "@/lib/auth/auth";
import { clientAddress } from "@/lib/auth/client-address";
import { authOperation, limitAuthRequest } from "@/lib/auth/limits";
import { appOrigin, isCrossOrigin } from "@/lib/auth/origin";
import { getDb } from "@/lib/db/client";
import { ConfigError, getEnv } from "@/lib/env";
import { AppError, crossOriginError, rateLimitedError, serverConfigError, toErrorResponse } from "@/lib/errors";
import { log } from "@/lib/log";
import { BodyTooLargeError, readBodyText } from "@/lib/server/request-body";

export const dynamic = "force-dynamic";

// Auth bodies are an email and a password or a token; anything far larger is not one of ours.
const MAX_AUTH_BODY_CHARS = 16 * 1024;
// The limit counts characters (UTF-16 units), and UTF-8 spends at most 3 bytes
// on one: a body within it fits in this many bytes, and one past them is over it.
const MAX_AUTH_BODY_BYTES = 3 * MAX_AUTH_BODY_CHARS;

// /api/auth/* – the browser's sign-up, sign-in, sign-out and password reset (better-auth),
// behind an origin check and rate limits per account and per client address
async function handle(req: Request): Promise<Response> {
  try {
    const env = getEnv();
    const path = authPath(req);
    // Verification links now land on our page, which sets the password; older links are sent there.
    if (req.method === "GET" && path === "/verify-email") {
      const token = new URL(req.url).searchParams.get("token") ?? "";
      return Response.redirect(`${appOrigin(env)}${AUTH_PATHS.verifyEmail}?token=${encodeURIComponent(token)}`, 302);
    }
    if (req.method !== "GET" && isCrossOrigin(req.headers, env)) throw crossOriginError();

    const body = await readAuthBody(req, path);
    const address = clientAddress(req.headers, env);
    if (!address) warnUnknownAddress();
    const exceeded = await limitAuthRequest(await getDb(), { operation: authOperation(path), address, email: emailIn(body) });
    if (exceeded) throw rateLimitedError(exceeded.state.resetSeconds);

    // The library reads the client's address (for sessions) from this header only.
    const headers = new Headers(req.headers);
    headers.delete(CLIENT_ADDRESS_HEADER);
    if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    const auth = await getAuth();
    return await auth.handler(new Request(req.url, { method: req.method, headers, body }));
  } catch (err) {
    return toErrorResponse(err instanceof ConfigError ? serverConfigError(err) : err, req);
  }
}

let warnedUnknownAddress = false;

// Without an address every client shares one per-address limit: tell the operator once.
function warnUnknownAddress(): void {
  if (warnedUnknownAddress) return;
  warnedUnknownAddress = true;
  log.warn("auth.client_address_unknown", { hint: "behind a proxy or on a serverless host, set TRUSTED_PROXY_HEADER (and TRUSTED_PROXY_HOPS)" });
}

/** The endpoint below /api/auth, in the form the limits name it: lower case, no trailing or doubled slashes. */
function authPath(req: Request): string {
  const pathname = new URL(req.url).pathname.toLowerCase().replace(/\/{2,}/g, "/").replace(/\/+$/, "");
  return pathname.startsWith(AUTH_BASE_PATH) ? pathname.slice(AUTH_BASE_PATH.length) || "/" : pathname;
}

/**
 * The body of a POST, as text: JSON (what the sign-in and sign-up pages
 * send), so the email the per-account limits key on is read exactly as the
 * library will read it; the OAuth endpoints (/oauth2/token, /oauth2/revoke)
 * also take the form encoding OAuth clients send.
 */
async function readAuthBody(req: Request, path: string): Promise<string | null> {
  if (req.method === "GET" || req.method === "HEAD") return null;
  const mediaType = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const unsupported = () => new AppError("UNSUPPORTED_MEDIA_TYPE");
  const tooLarge = () => new AppError("BODY_TOO_LARGE", { args: [`${MAX_AUTH_BODY_CHARS} characters`] });
  let body: string;
  try {
    body = await readBodyText(req, MAX_AUTH_BODY_BYTES);
  } catch (error) {
    // A body of the wrong type is refused as such whatever its size; an empty one never reaches here.
    if (error instanceof BodyTooLargeError) throw mediaType === "application/json" ? tooLarge() : unsupported();
    throw error;
  }
  if (!body) return null;
  const formAllowed = path.startsWith("/oauth2/") && mediaType === "application/x-www-form-urlencoded";
  if (mediaType !== "application/json" && !formAllowed) throw unsupported();
  if (body.length > MAX_AUTH_BODY_CHARS) throw tooLarge();
  return body;
}

/** The email a request body names (sign-in, sign-up, reset and verification mail), for the per-account limits. */
function emailIn(body: string | null): string | null {
  if (!body) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    const email = parsed && typeof parsed === "object" ? (parsed as { email?: unknown }).email : undefined;
    return typeof email === "string" ? email : null;
  } catch {
    return null;
  }
}

export { handle as GET, handle as POST };
