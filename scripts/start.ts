// npm start: applies pending migrations, then serves the production build on PORT (default 3000).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseDatabaseUrl } from "@/lib/db/config";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { authSecret } from "@/lib/auth/secret";
import { getEnv } from "@/lib/env";
import { SERVER_NODE_ARGS } from "./lib/server-options";

const root = process.cwd();

async function main(): Promise<void> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No production build found: run `npm run build` first.");
  }
  const env = getEnv();
  // Browser sign-in cannot work without its secret: say so now, not on the first sign-in.
  authSecret({ ...env, NODE_ENV: "production" });
  const { applied } = await migrateDatabaseTarget(parseDatabaseUrl(env.DATABASE_URL));
  for (const name of applied) process.stdout.write(`Applied migration ${name}\n`);

  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(env.PORT)], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
