import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { cpuBetween, postgresPids, readCpu } from "@/bench/cpu";
import { renderMarkdown, type BenchReport } from "@/bench/report";
import type { Measurement } from "@/bench/measure";

/** This process's CPU time so far (user and system, as /proc counts it), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Spins until this process has used `ms` more of CPU time. */
function burnCpu(ms: number): void {
  const until = cpuMs() + ms;
  while (cpuMs() < until) {
    // busy
  }
}

describe("CPU per request, read from /proc", () => {
  it("counts the CPU a process used between two readings", () => {
    const groups = { self: () => [process.pid] };
    const before = cpuMs();
    const start = readCpu(groups);
    burnCpu(300);
    const used = cpuBetween(start, readCpu(groups)).self!;
    const after = cpuMs();
    // /proc counts in 10 ms ticks, so the two clocks agree to within a few of them.
    expect(used).toBeGreaterThanOrEqual(280);
    expect(Math.abs(used - (after - before))).toBeLessThan(50);
  });

  it("counts a process that started between the readings from zero, and leaves out one that exited", async () => {
    const pids: number[] = [];
    const groups = { children: () => pids };
    const early = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    pids.push(early.pid!);
    const start = readCpu(groups);
    expect(start.get("children")!.has(early.pid!)).toBe(true);
    early.kill();
    await once(early, "exit");
    // A child that spins for 200 ms of its own CPU time, then waits to be read.
    const late = spawn(process.execPath, ["-e", "const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }; const t = u() + 200; while (u() < t); console.log('done'); setInterval(() => {}, 1000)"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      pids.push(late.pid!);
      await once(late.stdout!, "data");
      const used = cpuBetween(start, readCpu(groups)).children!;
      expect(used).toBeGreaterThanOrEqual(190);
    } finally {
      late.kill();
    }
  });

  it("leaves out a group with no process, or whose processes cannot be listed", () => {
    const groups = {
      self: () => [process.pid],
      none: () => [],
      unreadable: (): number[] => {
        throw new Error("ENOENT: no such file or directory, scandir '/proc'");
      },
    };
    const used = cpuBetween(readCpu(groups), readCpu(groups));
    expect(Object.keys(used)).toEqual(["self"]);
  });

  it("finds PostgreSQL's processes when the server runs on this machine", () => {
    // CI and the benchmark's machine run PostgreSQL locally; elsewhere the list is simply empty.
    const pids = postgresPids();
    if (process.env.TEST_DATABASE_URL?.includes("127.0.0.1")) expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) expect(Number.isInteger(pid)).toBe(true);
  });
});

describe("the benchmark's report of CPU per request", () => {
  const measured = (rps: number, cpuMsPerRequest?: Record<string, number>): Measurement => ({ requests: rps * 10, rps, p50: 5, p99: 9, failures: 0, cpuMsPerRequest, busyCores: 1.9 });

  it("bounds each route's throughput by the machine's cores over its CPU per request, as a share of the floor", () => {
    const report: BenchReport = {
      startedAt: "2026-11-26T00:00:00.000Z",
      machine: { cpus: 2, cpuModel: "test", memoryGb: 1, node: "v20" },
      config: {},
      postgres: {
        database: "bench",
        floors: { bare: measured(1000, { app: 1, identity: 0, postgres: 0, load: 0.5 }), verify: measured(5000), authOnly: measured(600, { app: 1.5, identity: 0.5, postgres: 0.5, load: 0.5 }) },
        results: [{ scenario: "list first page", kind: "read", user: "a@example.com", userNotes: 2000, api: measured(200, { app: 2, identity: 0.5, postgres: 1, load: 0.5 }), naive: measured(800, { app: 0, identity: 0, postgres: 1.5, load: 0.5 }) }],
        rssBefore: 100,
        rssAfter: 100,
      },
      pglite: null,
      problems: [],
    };
    const markdown = renderMarkdown(report);
    // 2 cores ÷ 1.5 ms = 1,333 req/s, 133% of the 1,000 req/s floor; ÷ 3 ms = 667 (67%); ÷ 4 ms = 500 (50%).
    expect(markdown).toContain("| framework floor (`/api/floor`) | 1.00 | 0.00 | 0.00 | 0.50 | 1.50 | 1.90 | 1333 | 133% |");
    expect(markdown).toContain("| withAuth only (`/api/me`) | 1.50 | 0.50 | 0.50 | 0.50 | 3.00 | 1.90 | 667 | 67% |");
    expect(markdown).toContain("| list first page, 2,000 notes | 2.00 | 0.50 | 1.00 | 0.50 | 4.00 | 1.90 | 500 | 50% |\n| (its naive SQL, through `pg` from the load generator) | 0.00 | 0.00 | 1.50 | 0.50 | 2.00 | 1.90 | 1000 | 100% |");
  });

  it("leaves the table out when no CPU was read", () => {
    const report: BenchReport = {
      startedAt: "2026-11-26T00:00:00.000Z",
      machine: { cpus: 2, cpuModel: "test", memoryGb: 1, node: "v20" },
      config: {},
      postgres: null,
      pglite: { results: [{ scenario: "get one note", kind: "read", user: "a@example.com", userNotes: 500, api: measured(300), naive: null }], rssBefore: 1, rssAfter: 1 },
      problems: [],
    };
    expect(renderMarkdown(report)).not.toContain("CPU per request");
  });
});
