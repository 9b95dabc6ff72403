import fs from "node:fs/promises";
import path from "node:path";
import type { DatabaseTarget } from "@/lib/db/config";
import { parseDatabaseUrl } from "@/lib/db/config";
import { DEV_ADMIN_HEADER, DEV_ADMIN_PATH, ZDevAdminSchema, type TDevAdmin } from "@/lib/dev/admin";
import { isProcessAlive } from "@/lib/files/lock-file";
import { readDevConfig, STACK_FILE } from "./dev-env";

/** `next dev` compiles the route on its first request. */
const REQUEST_TIMEOUT_MS = 90_000;

/**
 * The running `npm run dev` whose app holds `target`, from dev-stack.json in
 * NOTES_DATA_DIR (default .data) or next to the database directory; undefined
 * when none is running there.
 */
export async function findRunningDevApp(target: DatabaseTarget): Promise<TDevAdmin | undefined> {
  const dir = target.kind === "embedded" ? target.dir : target.kind === "pglite" ? target.dataDir : null;
  if (dir === null) return undefined;
  const candidates = new Set([readDevConfig().stackFile, path.join(path.dirname(dir), STACK_FILE)]);
  for (const file of candidates) {
    const admin = await readDevAdmin(file);
    if (!admin || !isProcessAlive(admin.pid)) continue;
    if (holdsDatabase(admin, file, target, dir)) return admin;
  }
  return undefined;
}

// The embedded server's URL changes with each start: its stack is the one in the data folder it runs from.
function holdsDatabase(admin: TDevAdmin, stackFile: string, target: DatabaseTarget, dir: string): boolean {
  if (target.kind === "embedded") return path.dirname(stackFile) === path.dirname(dir);
  const running = parseDatabaseUrl(admin.databaseUrl);
  return running.kind === "pglite" && running.dataDir === dir;
}

async function readDevAdmin(file: string): Promise<TDevAdmin | undefined> {
  try {
    const parsed = ZDevAdminSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")).admin);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The account commands, done by the running app. */
export function runningDevAppClient(admin: TDevAdmin) {
  const call = async <T>(method: "GET" | "POST" | "DELETE", body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${admin.url}${DEV_ADMIN_PATH}`, {
        method,
        headers: { [DEV_ADMIN_HEADER]: admin.secret, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`Could not reach the running app at ${admin.url} (${(error as Error).message}); stop npm run dev and try again.`);
    }
    const payload = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok) throw new Error(payload.error ?? `The running app answered ${response.status}`);
    return payload as T;
  };
  return {
    addUser: async (input: { email: string; password?: string; name?: string }) => (await call<{ user: { id: string; email: string } }>("POST", input)).user,
    removeUser: async (email: string) => (await call<{ user: { id: string; email: string } }>("DELETE", { email })).user,
    listUsers: async () => (await call<{ users: unknown[] }>("GET")).users,
  };
}
