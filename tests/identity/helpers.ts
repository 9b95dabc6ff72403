import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { startIdentityServer, type IdentityServer, type IdentityServerOptions } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { addPartnerKey } from "@/identity/partners";
import { addUserKey } from "@/identity/users";
import { makeTempDir } from "@/scripts/lib/processes";

export const ROOT = path.resolve(import.meta.dirname, "../..");

const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** Runs after the current test, most recent first. */
export function onCleanup(fn: () => Promise<unknown> | unknown): void {
  cleanups.push(fn);
}

/** Pass to afterEach in every file that uses these helpers. */
export async function runCleanups(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!();
}

export async function tempDir(prefix = "identity-test-"): Promise<string> {
  const { dir, remove } = await makeTempDir(prefix);
  onCleanup(remove);
  return dir;
}

export type TestService = IdentityServer & { dataDir: string; store: IdentityStore; logs: string[] };

export async function startTestService(options: Partial<IdentityServerOptions> = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? (await tempDir());
  const logs: string[] = [];
  const server = await startIdentityServer({ port: 0, host: "127.0.0.1", log: (line) => logs.push(line), ...options, dataDir });
  onCleanup(() => server.close());
  return { ...server, dataDir, store: await IdentityStore.open(dataDir), logs };
}

/** A service with one user (with a personal API key) and one active partner key. */
export async function startSeededService(options: Partial<IdentityServerOptions> = {}) {
  const service = await startTestService(options);
  const user = await addUserKey(service.store, { email: "alice@example.com" });
  const partner = await addPartnerKey(service.store, { email: "notes@example.com" });
  return { service, user, partner };
}

export async function mintToken(url: string, apiKey: string): Promise<string> {
  const response = await fetch(`${url}/api/tokens`, { method: "POST", headers: { Authorization: `Bearer ${apiKey}` } });
  if (response.status !== 200) throw new Error(`minting failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

export type VerifyCall = { authorization?: string; body?: string };

export async function postVerify(url: string, call: VerifyCall) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (call.authorization !== undefined) headers.Authorization = call.authorization;
  const response = await fetch(`${url}/api/verify`, { method: "POST", headers, body: call.body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export type RunResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** The environment of a child process, without this machine's identity settings. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["IDENTITY_DATA_DIR", "IDENTITY_TOKEN_TTL_SECONDS", "IDENTITY_API_URL", "AGENT_CONFIG_DIR", "PORT"]) delete env[name];
  return { ...env, ...extra };
}

export function run(
  command: string,
  args: string[],
  options: { env: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: childEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** `node --import tsx identity/cli.ts …` */
export const runIdentityCli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ["--import", "tsx", "identity/cli.ts", ...args], { env });

/** `node --import tsx identity/agent-cli.ts …` */
export const runAgentCli = (args: string[], env: Record<string, string>, input?: string) =>
  run(process.execPath, ["--import", "tsx", "identity/agent-cli.ts", ...args], { env, input });

/** Every file's bytes under `dir`, as latin1 text so any byte sequence can be searched. */
export async function readAllFiles(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((entry) => entry.isFile()).map((entry) => fs.readFile(path.join(entry.parentPath, entry.name), "latin1")),
  );
  return texts.join("\n");
}
