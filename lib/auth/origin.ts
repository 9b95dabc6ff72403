import { ConfigError, getEnv, type Env } from "@/lib/env";

// Every origin the app deals in lives here: its own public one (from APP_URL,
// never from a request's Host or X-Forwarded-Host), the ones trusted to make
// state-changing browser requests, and the check of a request's Origin.

// Settings are parsed once, so each Env's origins are worked out once too, not per request.
const origins = new WeakMap<Env, string>();
const trusted = new WeakMap<Env, readonly string[]>();

/**
 * The app's public origin, from APP_URL and never from a request: links in
 * emails, the USER_NOT_FOUND hint, OpenAPI `servers` and the auth library's
 * base URL all start with it. Development without APP_URL: http://localhost:<PORT>.
 */
export function appOrigin(env: Env = getEnv()): string {
  let origin = origins.get(env);
  if (origin === undefined) {
    origin = originOf(env);
    origins.set(env, origin);
  }
  return origin;
}

function originOf(env: Env): string {
  if (env.APP_URL) return new URL(env.APP_URL).origin;
  if (env.NODE_ENV === "production") {
    throw new ConfigError("APP_URL is not set: a production server needs its public origin (for example https://notes.example.com) to build links");
  }
  return `http://localhost:${env.PORT}`;
}

/**
 * Origins whose pages may sign in, sign up or call server actions: APP_URL
 * only. Without APP_URL (development) also 127.0.0.1 on the same port, which
 * people type too.
 */
export function trustedOrigins(env: Env): string[] {
  // A copy: the auth library is handed this list and may keep or change it.
  return [...trustedOriginList(env)];
}

function trustedOriginList(env: Env): readonly string[] {
  let list = trusted.get(env);
  if (list === undefined) {
    const origin = appOrigin(env);
    list = env.APP_URL ? [origin] : [origin, `http://127.0.0.1:${env.PORT}`];
    trusted.set(env, list);
  }
  return list;
}

/**
 * A browser request made by another site's page: its Origin is not a trusted
 * one (an opaque "null" included), or, without Origin, Sec-Fetch-Site says
 * cross-site. Requests with neither come from programs, which no other site
 * can make a visitor's browser send.
 */
export function isCrossOrigin(headers: Headers, env: Env): boolean {
  const origin = headers.get("origin");
  if (origin) return !trustedOriginList(env).includes(origin);
  return headers.get("sec-fetch-site") === "cross-site";
}

/**
 * A request /api/mcp may answer: without an Origin (a program, not a page), or
 * from the app's own origin or one listed in MCP_ALLOWED_ORIGINS; and, where
 * APP_URL is set, addressed to its host (every HTTP request names one; only
 * calls made inside the process have none). The MCP transport requires the
 * check: otherwise any web page could reach a server on the person's machine
 * through a DNS name rebound to it.
 */
export function isAllowedMcpOrigin(headers: Headers, env: Env): boolean {
  const host = headers.get("host");
  if (env.APP_URL && host !== null && host !== new URL(env.APP_URL).host) return false;
  const origin = headers.get("origin");
  if (origin === null) return true;
  return trustedOriginList(env).includes(origin) || (env.MCP_ALLOWED_ORIGINS ?? []).includes(origin);
}
