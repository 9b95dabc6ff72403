import type { ChildProcess } from "node:child_process";
import net from "node:net";
import readline from "node:readline";
import type { Readable } from "node:stream";

// Terminal control sequences (colours, cursor show/hide).
const CONTROL_SEQUENCE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * Writes each line of `stream` to `out` behind `prefix`, so interleaved logs
 * stay attributable. Lines with nothing visible (blank, or only cursor codes) are dropped.
 */
export function prefixLines(stream: Readable, prefix: string, out: NodeJS.WritableStream = process.stdout): void {
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
    if (line.replace(CONTROL_SEQUENCE, "").trim() === "") return;
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
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("exited before it was listening");
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`was not listening on port ${port} after ${timeoutMs / 1000} s`);
}

/** Resolves with the child's exit code once it has exited (null when a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Sends `signal`, then SIGKILL if the child is still running after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}
