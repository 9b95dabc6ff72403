/**
 * A worker thread of the conversion pool (lib/editor/conversion-pool.ts).
 * Loaded outside Next's bundle: by conversion-worker.mjs through tsx from a
 * checkout, or bundled into the standalone server's
 * lib/editor/conversion-worker.mjs by scripts/build-standalone.ts.
 */
import { readlinkSync } from "node:fs";
import os from "node:os";
import type { MessagePort } from "node:worker_threads";
import { getEditor, runConversion } from "./conversions";

// This thread's id: the pool reads the thread's CPU time from /proc to hold a
// job to its budget (null where there is no /proc: the budget is wall time).
let threadId: number | null = null;
try {
  threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
} catch {
  // not Linux
}
await getEditor();

// Loaded: from now on conversions are background work, and on Linux this
// thread, and only this thread, yields the CPU to the thread answering
// requests. Best effort.
try {
  if (threadId !== null) os.setPriority(threadId, 5);
} catch {
  // not permitted: conversions keep the default priority
}

type Job = { task: Parameters<typeof runConversion>[0]; started: MessagePort } | { warm: true };

export default async function convert(job: Job) {
  // The pool's warm-up job: the editor loaded before this thread took any job.
  if ("warm" in job) return null;
  const { task, started } = job;
  // The job's time budget starts now, not while it waited in the queue.
  started.postMessage({ threadId });
  started.close();
  return runConversion(task);
}
