// Serves the production build in this process (scripts/lib/server.ts); `npm start` runs it after the migrations.
// SIGTERM/SIGINT, or the end of the `npm start` process that spawned it, drain and close it.
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { startAppServer } from "./lib/server";

async function main(): Promise<void> {
  const env = getEnv();
  const server = await startAppServer({
    dir: process.cwd(),
    port: env.PORT,
    hostname: process.env.HOSTNAME || undefined,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  });
  process.stdout.write(`Serving on ${server.url}\n`);

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info("server.shutdown", { reason });
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error("server.shutdown_failed", { cause: err instanceof Error ? err.message : String(err) });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Started by `npm start`: if that process goes away (even by SIGKILL), so does the server.
  if (process.send) process.on("disconnect", () => stop("parent exited"));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
