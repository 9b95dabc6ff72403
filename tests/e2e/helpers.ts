import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { collectOutput, freePort, isGroupAlive, makeTempDir, stopChild, waitFor, waitForOutput, type TempDir } from "@/scripts/lib/processes";
import { apiClient } from "@/tests/helpers/api-client";
import { childEnv, runAgentCli, runIdentityCli, type RunResult } from "@/tests/identity/helpers";
import { ROOT, startTestApp, type TestApp } from "@/tests/helpers/test-app";
import { createTestDatabase } from "@/tests/helpers/test-db";

export { ROOT };

/** The trimmed stdout of a command run; fails the test with its stderr unless it exited 0. */
export function expectSuccess(result: RunResult, what: string): string {
  expect(result.code, `${what} failed:\n${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

export type DevProcess = { child: ChildProcess; output(): string };

// The shell running the tests may have these set; a dev stack must come from its own settings alone.
const DEV_STACK_SETTINGS = ["DATABASE_URL", "IDENTITY_API_URL", "IDENTITY_PARTNER_KEY", "NODE_ENV"];

const devRuns = new Set<ChildProcess>();

/** A temporary folder for one dev stack: its data under `data/` and free ports, as settings for spawnNpmRunDev. */
export async function makeDevStackDir(prefix: string): Promise<{ temp: TempDir; env: Record<string, string> }> {
  const temp = await makeTempDir(prefix);
  // Run as root, the embedded database runs as the postgres user, which must reach its folder.
  await fs.promises.chmod(temp.dir, 0o755);
  const env = { NOTES_DATA_DIR: path.join(temp.dir, "data"), PORT: String(await freePort()), IDENTITY_PORT: String(await freePort()) };
  return { temp, env };
}

/**
 * `npm run dev` in the project with `env` over this machine's environment
 * (less its identity and stack settings, and `unset`), in a process group of
 * its own so that SIGINT reaches npm, the script and next dev together,
 * as Ctrl-C does.
 */
export function spawnNpmRunDev(env: Record<string, string>, options: { unset?: string[] } = {}): DevProcess {
  const base = childEnv({});
  for (const name of [...DEV_STACK_SETTINGS, ...(options.unset ?? [])]) delete base[name];
  const child = spawn("npm", ["run", "dev"], { cwd: ROOT, env: { ...base, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  devRuns.add(child);
  child.once("exit", () => devRuns.delete(child));
  return { child, output: collectOutput(child) };
}

/** SIGKILL to the child's whole process group, if any of it is left. */
export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

/** For afterAll: no dev stack of this file outlives it, whatever failed. */
export function killDevRuns(): void {
  for (const child of devRuns) killGroup(child);
}

/**
 * Ctrl-C: SIGINT to the child's whole process group. Resolves with how the
 * child (npm) exited, once every process of the group has exited and all it
 * wrote has been read.
 */
export async function interruptGroup(child: ChildProcess, timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let outputEnded = [child.stdout, child.stderr].every((stream) => !stream || stream.closed);
  child.once("close", () => (outputEnded = true));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  process.kill(-child.pid!, "SIGINT");
  const result = await exited;
  await waitFor(() => !isGroupAlive(child.pid!), { timeoutMs, intervalMs: 100, message: `the processes of group ${child.pid} to exit after Ctrl-C` });
  // A busy machine can run the exit before the group's last writes are read
  // (both wait in the same turn of the event loop): the pipes close after them.
  await waitFor(() => outputEnded, { timeoutMs, intervalMs: 20, message: `the output of group ${child.pid} to end` });
  return result;
}

type IdentityProcess = { url: string; output(): string; stop(): Promise<void> };

/** `identity serve --port 0` as its own process; resolves with the URL it prints once listening. */
async function startIdentityProcess(env: Record<string, string>): Promise<IdentityProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "identity/cli.ts", "serve", "--port", "0", "--quiet"], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  try {
    const [, url] = await waitForOutput(child, output, /Identity service listening on (http:\/\/\S+)/, 30_000);
    return { url: url!, output, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

export type E2eStack = {
  app: TestApp;
  identity: IdentityProcess;
  api: ReturnType<typeof apiClient>;
  /** The app's partner key. */
  partnerKey: string;
  /** Environment for `identity` CLI runs against this stack's service. */
  identityEnv: Record<string, string>;
  /** `agent token` with the key saved for this stack's user. */
  mintToken(): Promise<string>;
  stop(): Promise<void>;
};

export type E2eStackOptions = {
  email: string;
  /** IDENTITY_TOKEN_TTL_SECONDS of the identity service. */
  tokenTtlSeconds?: number;
};

/**
 * The whole stack as separate processes, wired only through the command-line
 * tools: an identity service with a user and a partner key made by its CLI,
 * the agent tool holding the user's key, and the production app on a fresh
 * database with the user's account.
 */
export async function startE2eStack(options: E2eStackOptions): Promise<E2eStack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  };
  try {
    const temp = await makeTempDir("notes-e2e-");
    cleanups.push(temp.remove);
    const identityEnv: Record<string, string> = { IDENTITY_DATA_DIR: path.join(temp.dir, "identity") };
    if (options.tokenTtlSeconds) identityEnv.IDENTITY_TOKEN_TTL_SECONDS = String(options.tokenTtlSeconds);
    const identity = await startIdentityProcess(identityEnv);
    cleanups.push(identity.stop);

    const userKey = expectSuccess(await runIdentityCli(["user", "add", options.email], identityEnv), "identity user add");
    const partnerKey = expectSuccess(await runIdentityCli(["partner", "add", "notes@example.com"], identityEnv), "identity partner add");
    const agentEnv = { AGENT_CONFIG_DIR: path.join(temp.dir, "agent"), IDENTITY_API_URL: identity.url };
    expectSuccess(await runAgentCli(["key", "save"], agentEnv, userKey), "agent key save");

    const database = await createTestDatabase("pglite");
    cleanups.push(database.drop);
    await database.withDb((db) => createUser(db, { email: options.email }));
    const app = await startTestApp({ DATABASE_URL: database.url, IDENTITY_API_URL: identity.url, IDENTITY_PARTNER_KEY: partnerKey });
    cleanups.push(app.stop);

    return {
      app,
      identity,
      api: apiClient(app.url),
      partnerKey,
      identityEnv,
      mintToken: async () => expectSuccess(await runAgentCli(["token"], agentEnv), "agent token"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
