import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { ConversionResult, ConversionTask } from "@/lib/body/conversions";
import { bundledWorkerPath } from "@/lib/body/worker-file";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { procCpuMs } from "@/lib/server/linux-proc";
import { log } from "@/lib/log";

/**
 * The pool of worker threads every content conversion runs in, so no
 * conversion ever runs on the request thread. Each worker has its own heap
 * limit and each job a time budget counted from when a worker starts it (its
 * thread's CPU time on Linux, so a busy machine does not fail jobs that are
 * merely slowed); a job over its CPU time or its heap is killed together with
 * its worker (piscina replaces it) and the request answers 422 naming the
 * limit. A job that waits too long for a worker, finds the queue full, or is
 * still under its CPU budget after three times that budget in wall time (at
 * least 10 s: the machine is too busy to tell) answers 503: the server is
 * busy, not the input bad.
 */
type PoolState = {
  pool?: Piscina;
  /**
   * Jobs submitted and not finished: at most one running per thread, the rest
   * waiting. CONVERSION_QUEUE_MAX is enforced on this count, not through
   * piscina's maxQueue, which does not count jobs that carry an AbortSignal.
   */
  inFlight: number;
};
const globalKey = Symbol.for("notes.conversionPool");

function state(): PoolState {
  // Next.js may load this module once per route bundle: one pool per process.
  const store = globalThis as typeof globalThis & { [globalKey]?: PoolState };
  return (store[globalKey] ??= { inFlight: 0 });
}

/**
 * The worker file, resolved at run time from the app's root (outside the
 * bundle, which cannot hold it): in production the one `npm run build` bundled
 * into the build's folder, when it is there; otherwise the checkout's, which
 * loads the TypeScript worker through tsx.
 */
function workerFile(): { url: string; kind: "bundled" | "checkout" } {
  const root = /* turbopackIgnore: true */ process.cwd();
  if (process.env.NODE_ENV === "production") {
    const bundled = bundledWorkerPath(root, process.env.NEXT_DIST_DIR || ".next");
    if (existsSync(bundled)) return { url: pathToFileURL(bundled).href, kind: "bundled" };
  }
  return { url: pathToFileURL(path.join(root, "lib", "body", "conversion-worker.mjs")).href, kind: "checkout" };
}

function getPool(): Piscina {
  const current = state();
  if (!current.pool) {
    const env = getEnv();
    const threads = env.CONVERSION_THREADS ?? Math.max(1, os.availableParallelism() - 1);
    const worker = workerFile();
    log.info("conversion.pool_started", { threads, worker: worker.kind });
    current.pool = new Piscina({
      filename: worker.url,
      minThreads: threads,
      maxThreads: threads,
      // Workers stay warm: loading the editor's schema and the Markdown converter takes a good part of a second.
      idleTimeout: 10 * 60_000,
      // A young generation of 16 MB rather than 32: its pages stay in the
      // server's memory between jobs. In soaks of 100 KB notes the worker's
      // heap ended at 62–67 MB instead of 84 MB (V8's --trace-gc), and the
      // server converted as many notes.
      resourceLimits: { maxOldGenerationSizeMb: env.CONVERSION_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    current.pool.on("error", (err: unknown) => log.error("conversion.pool_error", { cause: err instanceof Error ? err.message : String(err) }));
    // Piscina hands jobs to the first workers before they have loaded, and a
    // job given up on there (CONVERSION_QUEUE_TIMEOUT_MS) would kill its
    // worker mid-load, so a slow start could never finish. One warm-up job per
    // worker, which nothing aborts, takes that place; real jobs queue behind it.
    for (let i = 0; i < threads; i += 1) {
      current.pool.run({ warm: true }).catch((err: unknown) => log.error("conversion.warm_failed", { cause: err instanceof Error ? err.message : String(err) }));
    }
  }
  return current.pool;
}

/** Starts the workers ahead of the first conversion (they take a second or more to load). */
export function warmConversionPool(): void {
  getPool();
}

/** Stops the workers (at shutdown); a later conversion starts a new pool. */
export async function closeConversionPool(): Promise<void> {
  const current = state();
  const pool = current.pool;
  current.pool = undefined;
  await pool?.destroy();
}

/** What a conversion is for, named in its 422: "Markdown" or "Note". */
export type ConversionSubject = string;

/**
 * Runs one conversion in the pool. Resolves with the worker's answer (which
 * may be a refusal of the input); rejects with AppError 422 when the job went
 * over its time or memory budget, 503 when no worker was free in time.
 */
export async function runConversion(task: ConversionTask, subject: ConversionSubject): Promise<ConversionResult> {
  const env = getEnv();
  const pool = getPool();
  const current = state();
  if (current.inFlight >= pool.maxThreads + env.CONVERSION_QUEUE_MAX) throw busyError("CONVERSIONS_BUSY", new Error("conversion queue full"));
  current.inFlight += 1;
  const controller = new AbortController();
  const { port1, port2 } = new MessageChannel();
  let outcome: Outcome | undefined;
  let budget: (() => void) | undefined;
  const queued = setTimeout(() => {
    outcome = "queue";
    controller.abort();
  }, env.CONVERSION_QUEUE_TIMEOUT_MS);
  port1.once("message", (message: { threadId?: number | null }) => {
    clearTimeout(queued);
    budget = holdToBudget(message?.threadId ?? null, env.CONVERSION_TIMEOUT_MS, (why) => {
      outcome = why;
      controller.abort();
    });
  });
  const started = Date.now();
  try {
    return (await pool.run({ task, started: port2 }, { transferList: [port2], signal: controller.signal })) as ConversionResult;
  } catch (err) {
    throw conversionFailure(err, outcome, subject, env);
  } finally {
    current.inFlight -= 1;
    clearTimeout(queued);
    budget?.();
    port1.close();
    const ms = Date.now() - started;
    if (ms > 1000) log.info("conversion.slow", { kind: task.kind, ms, outcome: outcome ?? "done" });
  }
}

// How often a running job's CPU time is checked, and how much longer than its
// budget in CPU time it may take in wall time (a busy machine slows every job;
// only the job's own work counts against it, within that bound).
const CHECK_EVERY_MS = 100;
const WALL_FACTOR = 3;
// ...and at least this long: a small budget (the tests use 0.1 to 1 s) would
// otherwise turn an ordinary pause of a loaded machine into a busy answer.
const MIN_WALL_MS = 10_000;

/**
 * Why a job was stopped: over its CPU budget ("timeout"), still under it at
 * the wall-time bound ("slowed": the machine, not the input), or never started
 * in time ("queue").
 */
type Outcome = "timeout" | "slowed" | "queue";

/** CPU time (user + system) of one thread of this process, in ms; null when unreadable. */
function threadCpuMs(threadId: number): number | null {
  return procCpuMs(`/proc/self/task/${threadId}/stat`) ?? null;
}

/**
 * Calls `exceeded("timeout")` once the job has used `budgetMs` of its worker
 * thread's CPU time, or `exceeded("slowed")` if WALL_FACTOR times that (at
 * least MIN_WALL_MS) passes in wall time first; where the thread's CPU time
 * cannot be read, wall time alone counts, as CPU time. Returns a function that
 * stops watching.
 */
export function holdToBudget(
  threadId: number | null,
  budgetMs: number,
  exceeded: (why: "timeout" | "slowed") => void,
  cpuMs: (threadId: number) => number | null = threadCpuMs,
): () => void {
  const start = threadId === null ? null : cpuMs(threadId);
  if (threadId === null || start === null) {
    const timer = setTimeout(() => exceeded("timeout"), budgetMs);
    return () => clearTimeout(timer);
  }
  const overCpu = () => {
    const now = cpuMs(threadId);
    return now !== null && now - start > budgetMs;
  };
  const wall = setTimeout(() => exceeded(overCpu() ? "timeout" : "slowed"), Math.max(budgetMs * WALL_FACTOR, MIN_WALL_MS));
  const poll = setInterval(() => {
    if (overCpu()) exceeded("timeout");
  }, CHECK_EVERY_MS);
  return () => {
    clearTimeout(wall);
    clearInterval(poll);
  };
}

function conversionFailure(err: unknown, outcome: Outcome | undefined, subject: string, env: ReturnType<typeof getEnv>): Error {
  if (outcome === "timeout") {
    return new AppError("CONTENT_TOO_COMPLEX", {
      args: [`${subject} is too expensive to convert: over the ${env.CONVERSION_TIMEOUT_MS / 1000} s time budget per conversion`],
      cause: err,
    });
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new AppError("CONTENT_TOO_COMPLEX", {
      args: [`${subject} is too expensive to convert: over the ${env.CONVERSION_HEAP_MB} MB memory budget per conversion`],
      cause: err,
    });
  }
  if (outcome === "queue") return busyError("CONVERSIONS_BUSY", err);
  if (outcome === "slowed") return busyError("CONVERSION_SLOWED", err);
  return err instanceof Error ? err : new Error(String(err));
}

function busyError(code: "CONVERSIONS_BUSY" | "CONVERSION_SLOWED", cause: unknown): AppError {
  return new AppError(code, {
    headers: { "Retry-After": "2" },
    cause,
  });
}
