import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { collectOutput, exited, waitFor, waitForOutput } from "@/scripts/lib/processes";

describe("waitFor", () => {
  it("resolves with the condition's first value that is neither undefined nor false", async () => {
    let checks = 0;
    const value = await waitFor(() => (++checks >= 3 ? `after ${checks}` : undefined), { timeoutMs: 10_000, intervalMs: 1, message: "three checks" });
    expect(value).toBe("after 3");
  });

  it("fails with what it waited for once the time is up", async () => {
    await expect(waitFor(() => false, { timeoutMs: 20, intervalMs: 1, message: () => "a condition that never holds" })).rejects.toThrow(
      "Timed out after 0.02 s waiting for a condition that never holds",
    );
  });

  it("fails at once with the condition's own error", async () => {
    let checks = 0;
    const failing = waitFor(
      () => {
        checks += 1;
        throw new Error("the child exited");
      },
      { timeoutMs: 10_000, message: "never" },
    );
    await expect(failing).rejects.toThrow("the child exited");
    expect(checks).toBe(1);
  });
});

describe("waitForOutput", () => {
  const node = (script: string) => spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });

  it("resolves with the match as the line arrives, while the child keeps running", async () => {
    const child = node('console.log("listening on http://127.0.0.1:1234"); setInterval(() => {}, 1000);');
    const output = collectOutput(child);
    try {
      const [, url] = await waitForOutput(child, output, /listening on (\S+)/, 30_000);
      expect(url).toBe("http://127.0.0.1:1234");
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
      await exited(child);
    }
  });

  it("fails with the output when the child ends without printing it", async () => {
    const child = node('console.error("config missing"); process.exit(3);');
    const output = collectOutput(child);
    await expect(waitForOutput(child, output, /listening/, 30_000)).rejects.toThrow(/exited \(3\) before printing \/listening\/:\nconfig missing/);
  });
});
