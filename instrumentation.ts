/**
 * Runs once as each server process starts (`next start`, `npm start`, a
 * serverless instance), before it serves.
 */
export async function register(): Promise<void> {
  // Next.js's own variables: which runtime loads this, and whether it is the build.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { trackConnectionAddresses } = await import("@/lib/auth/client-address");
  const { getEnv } = await import("@/lib/env");
  const { assertProductionSettings } = await import("@/lib/production-settings");

  // Rate limits key on the connection's address unless a trusted proxy is configured.
  trackConnectionAddresses();

  try {
    const env = getEnv();
    if (env.NODE_ENV === "production") assertProductionSettings(env);
    // Only with settings known good (a bad one must stop the server, not the pool): the
    // conversion workers load BlockNote and JSDOM, so start them now, not on the first note written.
    const { warmConversionPool } = await import("@/lib/editor/conversion-pool");
    warmConversionPool();
  } catch (err) {
    // A production server without its trusted origin or secret would build links
    // from request headers or sign sessions with nothing: refuse to serve at all.
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.NODE_ENV === "production") process.exit(1);
  }
}
