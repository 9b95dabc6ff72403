import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { requestSessionToken } from "@/identity/agent";
import { addPartnerKey } from "@/identity/partners";
import { IdentityStore } from "@/identity/store";
import { addUserKey } from "@/identity/users";
import { SERVER_NODE_ARGS } from "@/scripts/lib/server-options";
import { freePort, ROOT, startTestApp, stopProcess, type TestApp } from "@/tests/helpers/test-app";

/** The production app and the project's own identity service, as separate processes. */
export type BenchStack = {
  appUrl: string;
  identityUrl: string;
  partnerKey: string;
  /** A freshly minted session token for this account (tokens live five minutes). */
  mintToken(email: string): Promise<string>;
  /** Resident memory of the app process, in MB. */
  appRssMb(): number;
  stop(): Promise<void>;
};

export async function startBenchStack(options: { databaseUrl: string; workDir: string; emails: string[]; nodeArgs?: string[] }): Promise<BenchStack> {
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
  await waitForHealth(`${identityUrl}/health`, identity);

  let app: TestApp;
  try {
    app = await startTestApp({
      DATABASE_URL: options.databaseUrl,
      IDENTITY_API_URL: identityUrl,
      IDENTITY_PARTNER_KEY: partnerKey,
      LOG_LEVEL: "silent",
      DATABASE_POOL_MAX: "10",
      // Load far beyond an agent's budget: the limit's upsert still runs on every request, it just never answers 429.
      API_RATE_LIMIT: "1000000000",
    }, { nodeArgs: [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? [])] });
  } catch (err) {
    await stopProcess(identity);
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
    async stop() {
      await app.stop();
      await stopProcess(identity);
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`identity service exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("identity service did not start within 30 s");
}

/** Resident set size of a process and its descendants (Linux), in MB. */
function rssMb(pid: number): number {
  let kb = 0;
  for (const member of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${member}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return Math.round(kb / 102.4) / 10;
}

function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Field 4 (ppid) follows the parenthesised command name, which may contain spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}
