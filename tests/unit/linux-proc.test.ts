import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { procCpuMs, procStatFields, processIds } from "@/lib/server/linux-proc";

describe("reading /proc", () => {
  it("finds a process's parent past a command name holding spaces and parentheses", async () => {
    const child = spawn(process.execPath, ["-e", "process.title = 'a) (b c'; console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      await once(child.stdout!, "data");
      // The name really is the awkward one, so the test reads past it.
      expect(readFileSync(`/proc/${child.pid}/stat`, "utf8")).toContain("(a) (b c)");
      const fields = procStatFields(`/proc/${child.pid}/stat`)!;
      expect(fields[1]).toBe(String(process.pid));
      expect(processIds()).toContain(child.pid);
    } finally {
      child.kill();
    }
  });

  it("reads CPU time, and nothing for a process that is gone", async () => {
    expect(procCpuMs(`/proc/${process.pid}/stat`)).toBeGreaterThan(0);
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await once(child, "exit");
    expect(procCpuMs(`/proc/${child.pid}/stat`)).toBeUndefined();
    expect(procStatFields(`/proc/${child.pid}/stat`)).toBeUndefined();
  });
});
