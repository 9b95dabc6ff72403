import { readdirSync, readFileSync } from "node:fs";

/** Linux reports CPU times in /proc in clock ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

/**
 * The fields of a /proc stat file (a process's, or one thread's under
 * /proc/<pid>/task) after the parenthesised command name, which may hold
 * spaces: index 0 is field 3 (state), 1 the parent's pid, 11 and 12 utime and
 * stime. Undefined when it cannot be read (the process exited, or not Linux).
 */
export function procStatFields(statPath: string): string[] | undefined {
  try {
    const stat = readFileSync(statPath, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) so far from a /proc stat file, in ms; undefined when unreadable. */
export function procCpuMs(statPath: string): number | undefined {
  const fields = procStatFields(statPath);
  return fields === undefined ? undefined : ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The ids of every process on this machine, from /proc (Linux). */
export function processIds(): number[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number);
}
