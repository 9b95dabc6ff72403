import { readdirSync, readFileSync } from "node:fs";
import { processTree } from "@/scripts/lib/processes";

/**
 * CPU time per request, by process: where a route's cost goes on the shared
 * machine (the app, the identity service, PostgreSQL, the load generator), read
 * from /proc (Linux) around each measured window. Throughput can never pass
 * cores ÷ (CPU per request), so these figures also bound what any route can
 * reach while its CPU per request stays what it is.
 */

/** Kernel clock ticks per second, which /proc's CPU times count in: 100 on every Linux build that matters here. */
const TICKS_PER_SECOND = 100;

/** The processes of each group, found afresh at every reading (PostgreSQL's backends come and go). */
export type CpuGroups = Record<string, () => number[]>;

/** CPU time used so far, by group, then by process id, in ms. */
export type CpuReading = Map<string, Map<number, number>>;

/** A process's CPU time so far (user and system, all its threads), in ms; undefined once it has exited. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // utime and stime are fields 14 and 15; the fields after the parenthesised name start at field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

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
      const cpu = processCpuMs(pid);
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

/** Adds one window's CPU to a running total. */
export function addCpu(total: Record<string, number>, more: Record<string, number>): Record<string, number> {
  for (const [group, ms] of Object.entries(more)) total[group] = (total[group] ?? 0) + ms;
  return total;
}

/** Every process named `postgres` on this machine (the server and its backends); none when PostgreSQL runs elsewhere. */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
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
