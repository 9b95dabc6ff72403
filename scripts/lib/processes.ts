import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import type { Readable } from "node:stream";
import { API_INDEX_PATH } from "@/lib/http/paths";
import { processIds, procStatFields } from "@/lib/server/linux-proc";
import { SERVER_ENV, serverEntryArgs } from "./server-options";

// Child processes for the dev script, the benchmark and the tests alike: one
// way to start, watch, wait for and stop them.

export type WaitForOptions = {
  /** Fail after this long. */
  timeoutMs: number;
  /** Pause between checks; default 50 ms. */
  intervalMs?: number;
  /** What was awaited, for the error; a function is called only on failure (e.g. to attach a process's output). */
  message: string | (() => string);
};

/**
 * Checks `condition` until it returns something other than undefined or
 * false, and resolves with that. An error thrown by `condition` fails the
 * wait at once (a child that exited will never become ready); a condition
 * that may throw while it is not yet true catches that itself.
 */
export async function waitFor<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitForOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const message = typeof options.message === "function" ? options.message() : options.message;
      throw new Error(`Timed out after ${options.timeoutMs / 1000} s waiting for ${message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** A port nothing listens on right now, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type TempDir = { dir: string; remove(): Promise<void> };

/** A fresh directory under the system's temporary folder, and its removal. */
export async function makeTempDir(prefix: string): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves once the child's stdout and stderr have closed, so its output is complete. */
function outputDrained(child: ChildProcess): Promise<void> {
  const open = [child.stdout, child.stderr].some((stream) => stream && !stream.readableEnded && !stream.destroyed);
  return open ? new Promise((resolve) => child.once("close", () => resolve())) : Promise.resolve();
}

/** Everything the child wrote to stdout and stderr so far, interleaved as it arrived. */
export function collectOutput(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return () => text;
}

/**
 * Resolves with the first match of `pattern` in the child's output, checked
 * as each chunk arrives; fails with the output so far if the child's streams
 * close first or `timeoutMs` passes. `output` is the child's collectOutput().
 */
export function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      for (const stream of streams) stream.off("data", check);
      child.off("close", onClose);
      if (error) reject(error);
    };
    // Runs after collectOutput's listener (registered first), so output() holds this chunk.
    const check = () => {
      const match = pattern.exec(output());
      if (match) {
        finish();
        resolve(match);
      }
      return match;
    };
    const onClose = () => {
      if (!check()) finish(new Error(`Process exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${output()}`));
    };
    const timer = setTimeout(() => finish(new Error(`No ${pattern} within ${timeoutMs / 1000} s:\n${output()}`)), timeoutMs);
    for (const stream of streams) stream.on("data", check);
    child.on("close", onClose);
    // Already exited with its streams drained: no event will come.
    if (!check() && hasExited(child) && streams.every((stream) => stream.readableEnded || stream.destroyed)) onClose();
  });
}

export type WaitForHttpOptions = {
  timeoutMs: number;
  /** Fail at once if this child exits meanwhile. */
  child?: ChildProcess;
  /** The child's output, for the error. */
  output?: () => string;
  /** Which answer counts as ready; default any HTTP answer at all. */
  ready?: (response: Response) => boolean;
  headers?: Record<string, string>;
};

/**
 * Resolves with the first answer from `url` that counts as ready, its body
 * read in full; an answer that does not arrive whole within 30 s, or a refused
 * connection, means "not yet".
 */
export function waitForHttp(url: string, options: WaitForHttpOptions): Promise<Response> {
  const tail = () => (options.output ? `:\n${options.output()}` : "");
  return waitFor(
    async () => {
      if (options.child && hasExited(options.child)) {
        await outputDrained(options.child);
        throw new Error(`Process exited with ${options.child.exitCode ?? options.child.signalCode} before ${url} answered${tail()}`);
      }
      try {
        // A server's first request may compile the route: a slow answer is not a failure.
        const response = await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(30_000) });
        const body = await response.arrayBuffer();
        if (options.ready && !options.ready(response)) return undefined;
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      } catch {
        return undefined;
      }
    },
    { timeoutMs: options.timeoutMs, intervalMs: 100, message: () => `${url} to answer${tail()}` },
  );
}

// Terminal control sequences (colours, cursor show/hide).
const CONTROL_SEQUENCE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** A line of a child's output without its terminal colours and cursor moves. */
export const stripControlSequences = (line: string) => line.replace(CONTROL_SEQUENCE, "");

/**
 * Writes each line of `stream` to `out` behind `prefix`, so interleaved logs
 * stay attributable. Lines with nothing visible (blank, or only cursor codes)
 * are dropped, and so are those `keep` (given each line without its colours) refuses.
 */
export function prefixLines(stream: Readable, prefix: string, out: NodeJS.WritableStream = process.stdout, keep: (line: string) => boolean = () => true): void {
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
    const visible = line.replace(CONTROL_SEQUENCE, "");
    if (visible.trim() === "" || !keep(visible)) return;
    out.write(`${prefix} ${line}\n`);
  });
}

/** Whether nothing listens on `port` yet, probed the way a server binds to it (all interfaces). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") resolve(false);
      else reject(error);
    });
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Resolves once `child` accepts connections on `port`; rejects if it exits first or `timeoutMs` passes. */
export async function waitForListening(child: ChildProcess, port: number, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      if (hasExited(child)) throw new Error("exited before it was listening");
      return canConnect(port);
    },
    { timeoutMs, intervalMs: 200, message: `port ${port} to listen` },
  );
}

/** Resolves with the child's exit code once it has exited (null when a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (hasExited(child)) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Sends `signal`, then SIGKILL if the child is still running after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
  const done = exited(child);
  if (!hasExited(child)) child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export type ServerProcess = {
  url: string;
  pid: number;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
};

/**
 * The production server (scripts/serve.ts as the build bundled it, what
 * `npm start` runs after its migrations) of the current build, as a separate
 * process on a free loopback port, once it answers. Like any production server it needs APP_URL (here its
 * own loopback URL) and BETTER_AUTH_SECRET (a fresh random one), unless `env`
 * says otherwise.
 */
export async function startServerProcess(env: Record<string, string | undefined>, options: { nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const distDir = env.NEXT_DIST_DIR ?? process.env.NEXT_DIST_DIR ?? ".next";
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverEntryArgs(ROOT, distDir)], {
    cwd: ROOT,
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: "production",
      APP_URL: url,
      BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  const stop = () => stopChild(child);
  try {
    await waitForHttp(`${url}${API_INDEX_PATH}`, { child, output, timeoutMs: 60_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, output, stop };
}

/** Whether a process with this pid exists (signal 0 probes without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether any process of this process group exists. */
export function isGroupAlive(pgid: number): boolean {
  return isAlive(-pgid);
}

/** `pid` and every descendant of it, parents first, read from /proc (Linux). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const id of processIds()) {
    // Undefined once exited meanwhile.
    const ppid = procStatFields(`/proc/${id}/stat`)?.[1];
    if (ppid !== undefined) parents.set(id, Number(ppid));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, ppid] of parents) if (ppid === tree[i]) tree.push(child);
  }
  return tree;
}

/** A process's arguments from /proc (Linux); empty once it has exited. */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** Resident set size of a process and its descendants (Linux), in MB. */
export function rssMb(pid: number): number {
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

/**
 * Proportional set size of a process and its descendants (Linux), in MB: the
 * memory they hold, each shared page counted once across them (PostgreSQL's
 * backends all map the server's shared buffers, which RSS would count in each).
 */
export function pssMb(pid: number): number {
  let kb = 0;
  for (const member of processTree(pid)) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${member}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return Math.round(kb / 102.4) / 10;
}
