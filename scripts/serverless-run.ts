// Runs the serverless build (npm run build:serverless) as AWS Lambda runs it,
// from its own output only:
// - the function and its assets copied to a temporary folder, owned by root
//   and read-only to the instances, which run as an unprivileged user with
//   only the temp directory writable, and from there (not the checkout);
// - each instance a fresh process (a cold start), its handler imported once
//   and given one event at a time (scripts/lib/lambda-host.ts, bundled with
//   lambda-local into the temporary folder);
// - as many instances at once as asked for, each on its own port.
//
//   node --import tsx scripts/serverless-run.ts [--instances 2] [--port 3000]
// with the app's settings in the environment (DATABASE_URL, APP_URL, …).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { SERVERLESS_DIR, serverFunctionDir } from "@/scripts/build-serverless";
import { collectOutput, freePort, hasExited, stopChild, waitFor } from "@/scripts/lib/processes";

const NOBODY = 65534;
const ROOT = path.resolve(import.meta.dirname, "..");

/** A serverless build copied out for running: the host's folder, the function's and the assets'. */
export type ServerlessCopy = { dir: string; host: string; task: string; assets: string; remove(): void };

/**
 * Copies the function and its assets out of `buildDir` into a temporary
 * folder, read-only to everyone but root, beside the host process bundled
 * into one file.
 */
export async function copyServerlessBuild(buildDir: string = path.join(ROOT, SERVERLESS_DIR)): Promise<ServerlessCopy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-lambda-"));
  const task = path.join(dir, "task");
  const assets = path.join(dir, "assets");
  const host = path.join(dir, "host", "lambda-host.mjs");
  fs.cpSync(serverFunctionDir(buildDir), task, { recursive: true, verbatimSymlinks: true });
  fs.cpSync(path.join(buildDir, "assets"), assets, { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, "scripts/lib/lambda-host.ts")],
    outfile: host,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: "warning",
  });
  // Readable and runnable by the instances' user, writable by nobody but root.
  for (const file of walk(dir)) fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o555 : 0o444);
  return {
    dir,
    host,
    task,
    assets,
    remove: () => {
      for (const file of walk(dir)) fs.chmodSync(file, 0o755);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function* walk(dir: string): Generator<string> {
  yield dir;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (!entry.isSymbolicLink()) yield full;
  }
}

/** How an instance is started: the command, folder and environment a Lambda instance gets. */
export function instanceCommand(copy: ServerlessCopy, options: { port: number; env: Record<string, string> }) {
  const asUser = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  // Lambda's own variables, and the function's settings; nothing inherited.
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: os.tmpdir(),
    TMPDIR: os.tmpdir(),
    LAMBDA_TASK_ROOT: copy.task,
    AWS_LAMBDA_FUNCTION_NAME: "notes",
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "1024",
    AWS_REGION: "us-east-1",
    NODE_ENV: "production",
    ...options.env,
  };
  return {
    command: process.execPath,
    args: [copy.host, "--task", copy.task, "--assets", copy.assets, "--port", String(options.port)],
    // Lambda runs a function from its own folder, with only /tmp writable.
    cwd: copy.task,
    env,
    ...asUser,
  };
}

export type ServerlessInstance = { url: string; child: ChildProcess; output(): string; stop(): Promise<void> };

/** Starts one instance and waits until it answers. */
export async function startServerlessInstance(copy: ServerlessCopy, options: { port?: number; env: Record<string, string> }): Promise<ServerlessInstance> {
  const port = options.port ?? (await freePort());
  const spec = instanceCommand(copy, { port, env: options.env });
  const child: ChildProcess = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env as NodeJS.ProcessEnv, uid: spec.uid, gid: spec.gid, stdio: ["ignore", "pipe", "pipe"] });
  const output = collectOutput(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (hasExited(child)) throw new Error(`The instance exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
      return /\[lambda\] listening/.test(output());
    },
    { timeoutMs: 60_000, intervalMs: 20, message: () => `the instance to listen:\n${output()}` },
  );
  return { url, child, output, stop: () => stopChild(child) };
}

/**
 * Files a running instance has mapped or open that lie in `dir` (the
 * checkout): none, when it runs from its own output only.
 */
export function filesOpenIn(pid: number, dir: string): string[] {
  const found = new Set<string>();
  const inside = (file: string) => file === dir || file.startsWith(`${dir}/`);
  for (const line of fs.readFileSync(`/proc/${pid}/maps`, "utf8").split("\n")) {
    const file = line.split(/\s+/).slice(5).join(" ");
    if (inside(file)) found.add(file);
  }
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: "utf8" });
    if (inside(target)) found.add(target);
  }
  return [...found];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { instances: { type: "string", default: "1" }, port: { type: "string", default: "3000" }, build: { type: "string", default: path.join(ROOT, SERVERLESS_DIR) } } });
  const copy = await copyServerlessBuild(values.build);
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !["PATH", "HOME", "PWD", "NODE_ENV"].includes(entry[0])));
  const instances: ServerlessInstance[] = [];
  const stopAll = async () => {
    for (const instance of instances) await instance.stop();
    copy.remove();
    process.exit(0);
  };
  process.on("SIGINT", stopAll);
  process.on("SIGTERM", stopAll);
  for (let i = 0; i < Number(values.instances); i += 1) {
    const instance = await startServerlessInstance(copy, { port: Number(values.port) + i, env });
    instance.child.stdout?.pipe(process.stdout);
    instance.child.stderr?.pipe(process.stderr);
    instances.push(instance);
    process.stdout.write(`instance ${i + 1}: ${instance.url} (function in ${copy.task})\n`);
  }
}
