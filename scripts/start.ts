// npm start: starts the embedded database when DATABASE_URL is unset, applies
// pending migrations, then serves the production build on PORT (default 3000)
// until SIGTERM/SIGINT, and stops the embedded database after the server.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseDatabaseUrl } from "@/lib/db/config";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { openDatabase, type OpenDatabase } from "./lib/database";
import { assertProductionSettings } from "@/lib/auth/production-settings";
import { SERVER_ENV, SERVER_NODE_ARGS, serverEntryArgs } from "./lib/server-options";

const root = process.cwd();
const distDir = process.env.NEXT_DIST_DIR || ".next";

async function main(): Promise<void> {
  if (!existsSync(path.join(root, distDir, "BUILD_ID"))) {
    throw new Error("No production build found: run `npm run build` first.");
  }
  const env = getEnv();
  // Say what is missing now, not on the first sign-in (the server checks again as it starts).
  assertProductionSettings(env);
  const database = await openDatabase(env.DATABASE_URL, parseDatabaseUrl(env.DATABASE_URL, process.cwd(), env.NOTES_DATA_DIR), (line) => process.stdout.write(`${line}\n`));
  try {
    const { applied } = await migrateDatabaseTarget(database.target);
    for (const name of applied) process.stdout.write(`Applied migration ${name}\n`);
  } catch (error) {
    await database.stop();
    throw error;
  }
  serve(database);
}

// The server runs in its own process, with the production server's Node flags
// and nothing of the migration run left in memory. It drains and exits on
// SIGTERM/SIGINT; a signal to this process is passed on, and this process
// exits when the server has. Through the IPC channel the server also stops if
// this process dies without passing anything on.
function serve(database: OpenDatabase): void {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, ...serverEntryArgs(root, distDir)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...SERVER_ENV, ...process.env, NODE_ENV: "production", ...(database.url ? { DATABASE_URL: database.url } : {}) },
  });
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
  // npm runs this under `sh -c`; a shell killed by the signal npm passes on does
  // not pass it further. Orphaned, this process stops the server as if signalled.
  const parentPid = process.ppid;
  setInterval(() => {
    if (process.ppid !== parentPid) stop("SIGTERM");
  }, 250).unref();
  // The embedded database stopping under the server ends the server too (and this process with code 1).
  let databaseGone = false;
  let serverGone = false;
  void database.exited.then(() => {
    if (serverGone) return;
    databaseGone = true;
    process.stderr.write("The embedded database exited; stopping the server.\n");
    stop("SIGTERM");
  });
  child.on("exit", (code, signal) => {
    serverGone = true;
    void database.stop().finally(() => process.exit(databaseGone ? 1 : (code ?? (signal ? 1 : 0))));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
