import { spawn } from "node:child_process";
import path from "node:path";
import { requestSessionToken } from "@/identity/agent";
import { addPartnerKey } from "@/identity/partners";
import { IdentityStore } from "@/identity/store";
import { addUserKey } from "@/identity/users";
import { SERVER_NODE_ARGS } from "@/scripts/lib/server-options";
import { freePort, rssMb, startServerProcess, stopChild, waitForHttp, type ServerProcess } from "@/scripts/lib/processes";
import { stackCpuGroups, type CpuGroups } from "./cpu";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The production app and the project's own identity service, as separate processes. */
export type BenchStack = {
  appUrl: string;
  identityUrl: string;
  partnerKey: string;
  /** A freshly minted session token for this account (tokens live five minutes). */
  mintToken(email: string): Promise<string>;
  /** Resident memory of the app process, in MB. */
  appRssMb(): number;
  /** The stack's processes, for CPU per request (PostgreSQL's only when the app runs against it). */
  cpuGroups: CpuGroups;
  stop(): Promise<void>;
};

export type BenchStackOptions = {
  databaseUrl: string;
  workDir: string;
  emails: string[];
  nodeArgs?: string[];
  /** The app's database connections: the benchmark's 10 clients' worth unless given; null for the app's own default. */
  poolMax?: number | null;
};

export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const identityDir = path.join(options.workDir, "identity");
  const store = await IdentityStore.open(identityDir);
  const { partnerKey } = await addPartnerKey(store, { email: "bench-partner@example.com" });
  const apiKeys = new Map<string, string>();
  for (const email of options.emails) apiKeys.set(email, (await addUserKey(store, { email })).apiKey);

  const identityPort = await freePort();
  const identity = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "identity/cli.ts"), "serve", "--port", String(identityPort), "--quiet"], {
    cwd: ROOT,
    env: { ...process.env, IDENTITY_DATA_DIR: identityDir },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  await waitForHttp(`${identityUrl}/health`, { child: identity, timeoutMs: 30_000, ready: (response) => response.ok });

  let app: ServerProcess;
  try {
    app = await startServerProcess({
      DATABASE_URL: options.databaseUrl,
      IDENTITY_API_URL: identityUrl,
      IDENTITY_PARTNER_KEY: partnerKey,
      LOG_LEVEL: "silent",
      ...(options.poolMax === null ? {} : { DATABASE_POOL_MAX: String(options.poolMax ?? 10) }),
      // Load far beyond an agent's budget: the limit's upsert still runs on every request, it just never answers 429.
      API_RATE_LIMIT: "1000000000",
    }, { nodeArgs: [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? [])] });
  } catch (err) {
    await stopChild(identity);
    throw err;
  }

  return {
    appUrl: app.url,
    identityUrl,
    partnerKey,
    async mintToken(email) {
      const apiKey = apiKeys.get(email);
      if (!apiKey) throw new Error(`No identity account for ${email}`);
      return (await requestSessionToken({ apiUrl: identityUrl, apiKey })).sessionToken;
    },
    appRssMb: () => rssMb(app.pid),
    cpuGroups: stackCpuGroups({ app: app.pid, identity: identity.pid! }, { postgres: !options.databaseUrl.startsWith("pglite:") }),
    async stop() {
      await app.stop();
      await stopChild(identity);
    },
  };
}

/**
 * A JSON client acting as one account's agent, with a session token renewed
 * before its five minutes run out. A non-2xx answer throws.
 */
export function benchJsonClient(stack: BenchStack, email: string) {
  let token: string | undefined;
  let mintedAt = 0;
  return async function call<T = { note?: { id: string } }>(urlPath: string, method: string, body?: unknown): Promise<T> {
    if (token === undefined || Date.now() - mintedAt > 4 * 60_000) {
      token = await stack.mintToken(email);
      mintedAt = Date.now();
    }
    const res = await fetch(`${stack.appUrl}${urlPath}`, {
      method,
      headers: { "x-session-token": token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 200)}`);
    return (res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) as T;
  };
}
