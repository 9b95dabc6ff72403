import { Worker } from "node:worker_threads";
import { percentile } from "./measure";
import { realisticMarkdown } from "./markdown-notes";

/**
 * The "hostile neighbour": how reading one small note fares while other
 * clients post 100 KB Markdown notes in parallel, against the same reads with
 * the server otherwise idle, in the same run.
 */
export type HostileNeighbourResult = {
  writers: number;
  durationSec: number;
  idle: LatencySummary;
  loaded: LatencySummary;
  /** loaded p99 / idle p99 (target ≤ 3). */
  p99Ratio: number;
  writes: { count: number; statuses: Record<string, number>; p50: number; p99: number };
  rss: { beforeMb: number; peakMb: number; afterMb: number };
};

export type LatencySummary = { requests: number; p50: number; p99: number; failures: number };

export type HostileOptions = {
  appUrl: string;
  /** A fresh session token for the account that owns the note and posts the notes. */
  token: () => Promise<string>;
  writers: number;
  durationSec: number;
  rssMb: () => number;
};

const round = (ms: number) => Math.round(ms * 100) / 100;

export function summarizeLatencies(latencies: number[], failures: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), failures };
}

/**
 * Sequential GETs of one note for `ms`: one client, no queueing of its own, in
 * a worker thread of its own, so the writers' work in this process (making
 * their notes, reading the notes they get back) and the memory sampler never
 * hold up its clock: a neighbour reads from a client of its own.
 */
function readLoop(url: string, token: string, ms: number): Promise<{ latencies: number[]; failures: number }> {
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    (async () => {
      const { url, token, ms } = workerData;
      const latencies = [];
      let failures = 0;
      const deadline = performance.now() + ms;
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers: { "x-session-token": token } });
          await res.arrayBuffer();
          if (res.ok) latencies.push(performance.now() - t0);
          else failures += 1;
        } catch {
          failures += 1;
        }
      }
      parentPort.postMessage({ latencies, failures });
    })();
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, token, ms } });
    worker.once("message", (result: { latencies: number[]; failures: number }) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

/** One client posting 100 KB realistic Markdown notes back to back; each is deleted after, so the data stays the same size. */
async function writeLoop(
  appUrl: string,
  token: () => string,
  seed: number,
  notes: readonly string[],
  until: () => boolean,
  record: (status: number, ms: number) => void,
): Promise<void> {
  for (let i = 0; !until(); i += 1) {
    const body = JSON.stringify({ title: `Long meeting notes ${seed}-${i}`, contentMarkdown: notes[i % notes.length] });
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${appUrl}/api/notes`, { method: "POST", headers: { "x-session-token": token(), "content-type": "application/json" }, body });
      status = res.status;
      const json = (await res.json().catch(() => null)) as { note?: { id: string } } | null;
      record(status, performance.now() - t0);
      if (json?.note) await (await fetch(`${appUrl}/api/notes/${json.note.id}`, { method: "DELETE", headers: { "x-session-token": token() } })).arrayBuffer();
    } catch {
      record(status, performance.now() - t0);
    }
  }
}

export async function measureHostileNeighbour(options: HostileOptions): Promise<HostileNeighbourResult> {
  const token = await options.token();
  const created = await fetch(`${options.appUrl}/api/notes`, {
    method: "POST",
    headers: { "x-session-token": token, "content-type": "application/json" },
    body: JSON.stringify({ title: "Small note", contentMarkdown: "A small note with **one** line and a [link](https://example.com)." }),
  });
  if (created.status !== 201) throw new Error(`hostile neighbour: creating the small note answered ${created.status}`);
  const { note } = (await created.json()) as { note: { id: string } };
  const readUrl = `${options.appUrl}/api/notes/${note.id}`;
  const ms = options.durationSec * 1000;

  // Each writer's notes, made before they are needed (a writer reuses them if it gets through them all).
  const notes = Array.from({ length: options.writers }, (_, w) => Array.from({ length: 32 }, (_, i) => realisticMarkdown((100 + w) * 1000 + i)));

  // Warm the read path and the conversion workers.
  await readLoop(readUrl, token, 500);
  await writeLoop(options.appUrl, () => token, 1, notes[0]!, () => true, () => {});

  const idleRun = await readLoop(readUrl, token, ms);
  const idle = summarizeLatencies(idleRun.latencies, idleRun.failures);

  const beforeMb = options.rssMb();
  let peakMb = beforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, options.rssMb())), 250);
  const writeLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  const deadline = performance.now() + ms;
  const done = () => performance.now() > deadline;
  const [loadedRun] = await Promise.all([
    readLoop(readUrl, token, ms),
    ...Array.from({ length: options.writers }, (_, w) =>
      writeLoop(options.appUrl, () => token, 100 + w, notes[w]!, done, (status, latency) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        writeLatencies.push(latency);
      }),
    ),
  ]);
  clearInterval(sampler);
  const loaded = summarizeLatencies(loadedRun.latencies, loadedRun.failures);
  const writes = summarizeLatencies(writeLatencies, 0);
  return {
    writers: options.writers,
    durationSec: options.durationSec,
    idle,
    loaded,
    p99Ratio: Math.round((loaded.p99 / idle.p99) * 100) / 100,
    writes: { count: writeLatencies.length, statuses, p50: writes.p50, p99: writes.p99 },
    rss: { beforeMb, peakMb, afterMb: options.rssMb() },
  };
}

export function renderHostile(result: HostileNeighbourResult): string[] {
  const { idle, loaded, writes, rss } = result;
  const statuses = Object.entries(writes.statuses).map(([status, n]) => `${n}× ${status}`).join(", ");
  return [
    `Hostile neighbour (${result.writers} clients posting 100 KB Markdown notes, ${result.durationSec} s each phase): reading a small note p99 ${idle.p99} ms idle → ${loaded.p99} ms under load, **${result.p99Ratio}×** (target ≤ 3× ${result.p99Ratio <= 3 ? "✓" : "✗"}); p50 ${idle.p50} → ${loaded.p50} ms; ${idle.requests} / ${loaded.requests} reads, ${idle.failures + loaded.failures} failed.`,
    `Writes: ${writes.count} (${statuses}), p50 ${writes.p50} ms, p99 ${writes.p99} ms. Memory (the app's RSS, plus the embedded server's PSS where the benchmark runs one) ${rss.beforeMb} MB before, peak ${rss.peakMb} MB, ${rss.afterMb} MB after.`,
  ];
}
