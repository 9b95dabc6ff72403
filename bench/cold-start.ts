import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { CONTAINER_ENTRY } from "@/scripts/build-standalone";
import { SERVERLESS_DIR, serverFunctionDir } from "@/scripts/build-serverless";
import { collectOutput, hasExited, stopChild, waitFor } from "@/scripts/lib/processes";
import { copyServerlessBuild, instanceCommand } from "@/scripts/serverless-run";

/**
 * Cold start as a host sees it: from spawning the server process to the first
 * authenticated `200` from the API (a list with a search, the typical first
 * call), polling every 20 ms. Shared by `npm run bench` and the deployment
 * tests, which run what a host runs.
 */
export type ColdStartOptions = {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment of the server: nothing is inherited. */
  env: Record<string, string>;
  /** Base URL the server will answer on. */
  url: string;
  /** A session token minted beforehand, so minting is not counted. */
  token: string;
  /** Run as this user and group (an unprivileged one, as in the container). */
  uid?: number;
  gid?: number;
  timeoutMs?: number;
};

export type ColdStartedServer = {
  /** Process start → first authenticated 200, in milliseconds. */
  coldStartMs: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
};

export async function startAndTimeFirstRequest(options: ColdStartOptions): Promise<ColdStartedServer> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    uid: options.uid,
    gid: options.gid,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const stop = () => stopChild(child);
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    await waitFor(
      async () => {
        if (hasExited(child)) throw new Error(`Server exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
        const response = await fetch(`${options.url}/api/notes?search=cold`, {
          headers: { "x-session-token": options.token },
          signal: AbortSignal.timeout(5000),
        }).catch(() => undefined); // not listening yet
        if (!response) return false;
        await response.arrayBuffer();
        if (response.status === 200) return true;
        // Still starting: routes not compiled yet, or the database not reachable yet.
        if (response.status === 503 || response.status === 404) return false;
        throw new Error(`First authenticated request answered ${response.status}:\n${output()}`);
      },
      { timeoutMs, intervalMs: 20, message: () => `an authenticated 200:\n${output()}` },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { coldStartMs: Math.round(performance.now() - started), child, output, stop };
}

export type ColdStartReport = {
  /** `next start` on the benchmark's build: what a serverless host's Next runtime starts. */
  nextStart: number[];
  /** `node serve.mjs` of `npm run build:standalone`: what the container runs; null when that build is absent. */
  standalone: number[] | null;
  /**
   * A fresh instance of `npm run build:serverless`'s function, run as Lambda
   * runs it (scripts/serverless-run.ts: a read-only copy, an unprivileged
   * user); null when that build is absent. Straight to PostgreSQL, as the
   * other two, not through a pooler.
   */
  serverless?: number[] | null;
};

/**
 * Starts the server `runs` times from cold against `databaseUrl` with only the
 * environment a host gives it, timing each to its first authenticated 200.
 */
export async function measureColdStarts(options: {
  root: string;
  buildDir: string;
  standaloneDir: string;
  databaseUrl: string;
  identityUrl: string;
  partnerKey: string;
  token: string;
  runs: number;
  freePort(): Promise<number>;
}): Promise<ColdStartReport> {
  const once = async (server: "next" | "standalone") => {
    const port = await options.freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_URL: url,
      DATABASE_URL: options.databaseUrl,
      DATABASE_POOL_MAX: "2",
      IDENTITY_API_URL: options.identityUrl,
      IDENTITY_PARTNER_KEY: options.partnerKey,
      BETTER_AUTH_SECRET: "cold-start-benchmark-secret-0123456789abcdef",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "silent",
    };
    const started =
      server === "next"
        ? await startAndTimeFirstRequest({
            command: process.execPath,
            args: [`${options.root}/node_modules/next/dist/bin/next`, "start", "-p", String(port), "-H", "127.0.0.1"],
            cwd: options.root,
            env: { ...env, NEXT_DIST_DIR: options.buildDir },
            url,
            token: options.token,
          })
        : await startAndTimeFirstRequest({ command: process.execPath, args: [CONTAINER_ENTRY], cwd: options.standaloneDir, env, url, token: options.token });
    await started.stop();
    return started.coldStartMs;
  };
  const nextStart: number[] = [];
  for (let i = 0; i < options.runs; i++) nextStart.push(await once("next"));
  let standalone: number[] | null = null;
  if (existsSync(`${options.standaloneDir}/${CONTAINER_ENTRY}`)) {
    standalone = [];
    for (let i = 0; i < options.runs; i++) standalone.push(await once("standalone"));
  }
  let serverless: number[] | null = null;
  const functionBuild = path.join(options.root, SERVERLESS_DIR);
  if (existsSync(serverFunctionDir(functionBuild))) {
    serverless = [];
    const copy = await copyServerlessBuild(functionBuild);
    try {
      for (let i = 0; i < options.runs; i++) {
        const port = await options.freePort();
        const url = `http://127.0.0.1:${port}`;
        const spec = instanceCommand(copy, {
          port,
          env: {
            APP_URL: url,
            DATABASE_URL: options.databaseUrl,
            DATABASE_POOL_MAX: "1",
            CONVERSION_THREADS: "1",
            IDENTITY_API_URL: options.identityUrl,
            IDENTITY_PARTNER_KEY: options.partnerKey,
            BETTER_AUTH_SECRET: "cold-start-benchmark-secret-0123456789abcdef",
            LOG_LEVEL: "silent",
          },
        });
        const started = await startAndTimeFirstRequest({ ...spec, url, token: options.token });
        await started.stop();
        serverless.push(started.coldStartMs);
      }
    } finally {
      copy.remove();
    }
  }
  return { nextStart, standalone, serverless };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
