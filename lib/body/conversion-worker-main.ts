/**
 * A worker thread of the conversion pool (lib/body/conversion-pool.ts).
 * Loaded outside Next's bundle: by conversion-worker.mjs through tsx from a
 * checkout, or bundled into the standalone server's
 * lib/body/conversion-worker.mjs by scripts/build-standalone.ts.
 */
import { readlinkSync } from "node:fs";
import os from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import type { MessagePort } from "node:worker_threads";
import { warmConverter, runConversion } from "./conversions";

// This thread's id: the pool reads the thread's CPU time from /proc to hold a
// job to its budget (null where there is no /proc: the budget is wall time).
let threadId: number | null = null;
try {
  threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
} catch {
  // not Linux
}
warmConverter();

// Loaded: from now on conversions are background work, and on Linux this
// thread, and only this thread, yields the CPU to the thread answering
// requests. Best effort.
try {
  if (threadId !== null) os.setPriority(threadId, 5);
} catch {
  // not permitted: conversions keep the default priority
}

/**
 * A full garbage collection of this thread's heap, or null where it cannot be
 * had. V8 otherwise leaves a large conversion's garbage in the heap until the
 * next one needs the room, and the heap's pages stay in the server's memory in
 * between. The flag is set only long enough to take the function from a new
 * context, as Jest does for --logHeapUsage.
 */
function takeGc(): (() => void) | null {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    v8.setFlagsFromString("--no-expose-gc");
    return typeof gc === "function" ? gc : null;
  } catch {
    return null;
  }
}
const collectGarbage = takeGc();
// A job that leaves more than this in the heap is followed by a collection.
// Chosen (and soaked) with the DOM-based converter, when a 100 KB note left
// 44–58 MB in use; the converter with micromark's reader left about
// 95–150 MB after a 100 KB note or table and under 50 MB after a 10 KB note
// (npm run bench's conversion table), so a collection follows large jobs.
const COLLECT_ABOVE_BYTES = 64 * 1024 * 1024;

type Job = { task: Parameters<typeof runConversion>[0]; started: MessagePort } | { warm: true };

export default async function convert(job: Job) {
  // The pool's warm-up job: the editor loaded before this thread took any job.
  if ("warm" in job) return null;
  const { task, started } = job;
  // The job's time budget starts now, not while it waited in the queue.
  started.postMessage({ threadId });
  started.close();
  try {
    return await runConversion(task);
  } finally {
    // Once the answer has been posted back, not before it.
    setImmediate(collectIfLarge);
  }
}

function collectIfLarge(): void {
  if (collectGarbage && v8.getHeapStatistics().used_heap_size > COLLECT_ABOVE_BYTES) collectGarbage();
}
