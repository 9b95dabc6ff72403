import { authSecret } from "@/lib/auth/secret";
import { appOrigin } from "@/lib/auth/origin";
import type { Env } from "@/lib/env";

/**
 * Settings a production server must not run without, checked in one place by
 * `npm start` (before migrating) and by the server itself as it starts
 * (instrumentation.ts), so `next start` on its own or a serverless host refuse
 * too. Throws ConfigError naming the setting, never its value.
 */
export function assertProductionSettings(env: Env): void {
  const production = { ...env, NODE_ENV: "production" as const };
  // Signs sessions and email links.
  authSecret(production);
  // The one trusted origin: without it links would have to come from request headers.
  appOrigin(production);
}
