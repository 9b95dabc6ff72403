import { trackConnectionAddresses } from "@/lib/auth/client-address";
import { warmConversionPool } from "@/lib/body/conversion-pool";
import { getEnv } from "@/lib/env";
import { assertProductionSettings } from "@/lib/auth/production-settings";

/**
 * The Node.js server's start (instrumentation.ts loads it on that runtime
 * only, so the Edge runtime's compile never sees Node's APIs here and warns
 * about them on every request in development).
 */
export function registerNodeServer(): void {
  // Rate limits key on the connection's address unless a trusted proxy is configured.
  trackConnectionAddresses();

  try {
    const env = getEnv();
    if (env.NODE_ENV === "production") assertProductionSettings(env);
    // Only with settings known good (a bad one must stop the server, not the pool): the
    // conversion workers load BlockNote and JSDOM, so start them now, not on the first note written.
    warmConversionPool();
  } catch (err) {
    // A production server without its trusted origin or secret would build links
    // from request headers or sign sessions with nothing: refuse to serve at all.
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.NODE_ENV === "production") process.exit(1);
  }
}
