import path from "node:path";
import { startServerProcess, type ServerProcess } from "@/scripts/lib/processes";
import { registerApiOrigin } from "./api-traffic";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export type TestApp = ServerProcess;

/**
 * The production server as a real separate process (see startServerProcess),
 * logging at info level, with an API budget no test reaches unless it sets
 * its own; its responses are checked against the OpenAPI document.
 */
export async function startTestApp(env: Record<string, string | undefined>, options: { nodeArgs?: string[] } = {}): Promise<TestApp> {
  const app = await startServerProcess(
    {
      LOG_LEVEL: "info",
      // Tests send far more than an account's API budget; the rate-limit tests set their own.
      API_RATE_LIMIT: "1000000",
      ...env,
    },
    options,
  );
  registerApiOrigin(app.url);
  return app;
}
