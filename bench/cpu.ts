import { readFileSync } from "node:fs";
import { processIds, procCpuMs } from "@/lib/server/linux-proc";
import { processTree } from "@/scripts/lib/processes";

/**
 * CPU time per request, by process: where a route's cost goes on the shared
 * machine (the app, the identity service, PostgreSQL, the load generator), read
 * from /proc (Linux) around each measured window. Throughput can never pass
 * cores ÷ (CPU per request), so these figures also bound what any route can
 * reach while its CPU per request stays what it is.
 */

/** The processes of each group, found afresh at every reading (PostgreSQL's backends come and go). */
export type CpuGroups = Record<string, () => number[]>;

/** CPU time used so far, by group, then by process id, in ms. */
export type CpuReading = Map<string, Map<number, number>>;

/** A group's processes; none where /proc cannot be read (not Linux). */
function listed(pids: () => number[]): number[] {
  try {
    return pids();
  } catch {
    return [];
  }
}

export function readCpu(groups: CpuGroups): CpuReading {
  const reading: CpuReading = new Map();
  for (const [group, pids] of Object.entries(groups)) {
    const byPid = new Map<number, number>();
    for (const pid of listed(pids)) {
      const cpu = procCpuMs(`/proc/${pid}/stat`);
      if (cpu !== undefined) byPid.set(pid, cpu);
    }
    reading.set(group, byPid);
  }
  return reading;
}

/**
 * CPU used by each group between two readings, in ms. A process that started
 * in between counts from zero; one that exited in between is not counted. A
 * group with no process found (PostgreSQL on another machine) is left out.
 */
export function cpuBetween(start: CpuReading, end: CpuReading): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [group, byPid] of end) {
    if (byPid.size === 0) continue;
    let total = 0;
    for (const [pid, cpu] of byPid) total += cpu - (start.get(group)?.get(pid) ?? 0);
    used[group] = total;
  }
  return used;
}

/**
 * Starts reading the groups' CPU time; the function returned gives what each
 * used since (nothing without groups).
 */
export function cpuWindow(groups: CpuGroups | undefined): () => Record<string, number> | undefined {
  if (!groups) return () => undefined;
  const start = readCpu(groups);
  return () => cpuBetween(start, readCpu(groups));
}

/** Adds one window's CPU to a running total. */
export function addCpu(total: Record<string, number>, more: Record<string, number>): Record<string, number> {
  for (const [group, ms] of Object.entries(more)) total[group] = (total[group] ?? 0) + ms;
  return total;
}

/** Every process named `postgres` on this machine (the server and its backends); none when PostgreSQL runs elsewhere. */
export function postgresPids(): number[] {
  return processIds().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** The groups of the benchmark's stack: the app and the identity service with their children, PostgreSQL, and this process (the load generator). */
export function stackCpuGroups(pids: { app: number; identity: number }, options: { postgres: boolean }): CpuGroups {
  return {
    app: () => processTree(pids.app),
    identity: () => processTree(pids.identity),
    ...(options.postgres ? { postgres: postgresPids } : {}),
    load: () => [process.pid],
  };
}
