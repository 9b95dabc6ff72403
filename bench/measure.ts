import autocannon from "autocannon";
import { addCpu, cpuWindow, type CpuGroups } from "./cpu";

export type Measurement = {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses outside 2xx, or failed operations. */
  failures: number;
  /** CPU per answered request while it was measured, in ms, by process group (when groups were given). */
  cpuMsPerRequest?: Record<string, number>;
  /** How many of the machine's cores all those processes kept busy, on average. */
  busyCores?: number;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function summarize(latencies: number[], elapsedMs: number, failures: number, cpuMs?: Record<string, number>): Measurement {
  latencies.sort((a, b) => a - b);
  const answered = latencies.length + failures;
  const cpu = cpuMs && answered > 0
    ? {
        cpuMsPerRequest: Object.fromEntries(Object.entries(cpuMs).map(([group, ms]) => [group, round(ms / answered)])),
        busyCores: Math.round((Object.values(cpuMs).reduce((a, b) => a + b, 0) / elapsedMs) * 100) / 100,
      }
    : {};
  return {
    requests: latencies.length,
    rps: Math.round((latencies.length / elapsedMs) * 1000),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    failures,
    ...cpu,
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export type HttpLoad = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Rotates the path per request (for example over a set of note ids). */
  paths?: string[];
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** Processes whose CPU time is read around the measured part (not the warm-up). */
  cpu?: CpuGroups;
};

/**
 * HTTP load with autocannon (keep-alive, fixed connections and duration). The
 * warm-up run is discarded. Latencies come from autocannon's per-response
 * timings, which keep sub-millisecond precision its histogram rounds away.
 */
export async function measureHttp(load: HttpLoad): Promise<Measurement> {
  if (load.warmupSec > 0) await runAutocannon({ ...load, durationSec: load.warmupSec }, () => {});
  const latencies: number[] = [];
  let failures = 0;
  const cpuUsed = cpuWindow(load.cpu);
  const started = performance.now();
  await runAutocannon(load, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else failures += 1;
  });
  const elapsedMs = performance.now() - started;
  return summarize(latencies, elapsedMs, failures, cpuUsed());
}

/**
 * Several HTTP loads measured in turns: `rounds` slices of each, one after the
 * other (A B A B …), each slice durationSec / rounds long, after one warm-up
 * each. On a shared machine a change in the load then hits every one of them
 * about equally, so their ratios hold better than those of runs made one after
 * the whole other.
 */
export async function measureHttpInTurns(loads: HttpLoad[], rounds: number): Promise<Measurement[]> {
  for (const load of loads) if (load.warmupSec > 0) await runAutocannon({ ...load, durationSec: load.warmupSec }, () => {});
  const tallies = loads.map(() => ({ latencies: [] as number[], failures: 0, elapsedMs: 0, cpuMs: {} as Record<string, number> }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, load] of loads.entries()) {
      const tally = tallies[i]!;
      const cpuUsed = cpuWindow(load.cpu);
      const started = performance.now();
      await runAutocannon({ ...load, durationSec: load.durationSec / rounds }, (status, ms) => {
        if (status >= 200 && status < 300) tally.latencies.push(ms);
        else tally.failures += 1;
      });
      tally.elapsedMs += performance.now() - started;
      addCpu(tally.cpuMs, cpuUsed() ?? {});
    }
  }
  return tallies.map((tally, i) => summarize(tally.latencies, tally.elapsedMs, tally.failures, loads[i]!.cpu && tally.cpuMs));
}

function runAutocannon(load: HttpLoad, onResponse: (status: number, ms: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = 0;
    const paths = load.paths;
    const instance = autocannon(
      {
        url: load.url,
        method: (load.method ?? "GET") as autocannon.Request["method"],
        headers: load.headers,
        body: load.body,
        connections: load.connections,
        duration: load.durationSec,
        requests: paths
          ? [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[next++ % paths.length] }) }]
          : undefined,
      },
      (err: Error | null) => (err ? reject(err) : resolve()),
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => onResponse(status, ms));
  });
}

/**
 * The same shape of load for anything that is not HTTP (a SQL query, a verify
 * call through a client): `connections` loops run `operation` back to back for
 * the duration, after a discarded warm-up.
 */
export async function measureLoop(
  operation: (worker: number) => Promise<unknown>,
  options: { connections: number; durationSec: number; warmupSec: number; cpu?: CpuGroups },
): Promise<Measurement> {
  const run = async (durationSec: number, record: boolean) => {
    const latencies: number[] = [];
    let failures = 0;
    const deadline = performance.now() + durationSec * 1000;
    const cpuUsed = cpuWindow(record ? options.cpu : undefined);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async (_, worker) => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          try {
            await operation(worker);
            if (record) latencies.push(performance.now() - t0);
          } catch {
            failures += 1;
          }
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    return summarize(latencies, elapsedMs, failures, cpuUsed());
  };
  if (options.warmupSec > 0) await run(options.warmupSec, false);
  return run(options.durationSec, true);
}

/** Sequential requests, one after another: latency without queueing. */
export async function measureSequential(count: number, operation: () => Promise<boolean>): Promise<Measurement> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    const ok = await operation();
    latencies.push(performance.now() - t0);
    if (!ok) failures += 1;
  }
  return summarize(latencies, performance.now() - started, failures);
}
