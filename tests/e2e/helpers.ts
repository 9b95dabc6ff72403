import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { apiClient } from "@/tests/helpers/api-client";
import { childEnv, runAgentCli, runIdentityCli, type RunResult } from "@/tests/identity/helpers";
import { ROOT, startTestApp, stopProcess, type TestApp } from "@/tests/helpers/test-app";
import { createTestDatabase } from "@/tests/helpers/test-db";

export { ROOT };

/** The trimmed stdout of a command run; fails the test with its stderr unless it exited 0. */
export function expectSuccess(result: RunResult, what: string): string {
  expect(result.code, `${what} failed:\n${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

export async function makeTempDir(prefix: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
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
    return { url: url!, output, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** Everything the child wrote to stdout and stderr so far. */
export function collectOutput(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return () => text;
}

/** Polls the child's output for `pattern`; fails with the output so far if it exits or `timeoutMs` passes first. */
export async function waitForOutput(
  child: ChildProcess,
  output: () => string,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Process exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${output()}`);
    }
    if (Date.now() > deadline) throw new Error(`No ${pattern} within ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
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
