import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { registerApiOrigin } from "./api-traffic";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export type TestApp = {
  url: string;
  pid: number;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs the production build with the production server (scripts/serve.ts, what
 * `npm start` runs after its migrations) on a free loopback port with the
 * given settings, as a real separate process. Like any production server it
 * needs APP_URL (the one origin it trusts and builds links from: here its own
 * loopback URL) and BETTER_AUTH_SECRET (a fresh random one), unless `env` says
 * otherwise.
 */
export async function startTestApp(env: Record<string, string | undefined>, options: { nodeArgs?: string[] } = {}): Promise<TestApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [...(options.nodeArgs ?? []), "--import", "tsx", path.join(ROOT, "scripts/serve.ts")];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_URL: url,
      BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      // Tests send far more than an account's API budget; the rate-limit tests set their own.
      API_RATE_LIMIT: "1000000",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitUntilServing(url, child, () => output);
  registerApiOrigin(url);
  return { url, pid: child.pid!, output: () => output, stop: () => stopProcess(child) };
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`App exited with ${child.exitCode}:\n${output()}`);
    try {
      await fetch(`${url}/api`, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stopProcess(child);
  throw new Error(`App did not start within 60 s:\n${output()}`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
