/**
 * Runs once as each server process starts (`next start`, `npm start`, a
 * serverless instance), before it serves.
 */
export async function register(): Promise<void> {
  // Next.js's own variables: which runtime loads this, and whether it is the build.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { registerNodeServer } = await import("./instrumentation-node");
  registerNodeServer();
}
