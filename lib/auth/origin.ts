import { appOrigin, type Env } from "@/lib/env";

/**
 * Origins whose pages may sign in, sign up or call server actions: APP_URL
 * only. Without APP_URL (development) also 127.0.0.1 on the same port, which
 * people type too.
 */
export function trustedOrigins(env: Env): string[] {
  const origin = appOrigin(env);
  return env.APP_URL ? [origin] : [origin, `http://127.0.0.1:${env.PORT}`];
}

/**
 * A browser request made by another site's page: its Origin is not a trusted
 * one (an opaque "null" included), or, without Origin, Sec-Fetch-Site says
 * cross-site. Requests with neither come from programs, which no other site
 * can make a visitor's browser send.
 */
export function isCrossOrigin(headers: Headers, env: Env): boolean {
  const origin = headers.get("origin");
  if (origin) return !trustedOrigins(env).includes(origin);
  return headers.get("sec-fetch-site") === "cross-site";
}
