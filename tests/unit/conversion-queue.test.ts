import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";

// One worker, room for one waiting job, and a short wait: the settings under test.
process.env.CONVERSION_THREADS = "1";
process.env.CONVERSION_QUEUE_MAX = "1";
process.env.CONVERSION_QUEUE_TIMEOUT_MS = "100";
process.env.CONVERSION_TIMEOUT_MS = "60000";

const { runConversion, closeConversionPool } = await import("@/lib/body/conversion-pool");

// A legitimate note that keeps the one worker busy for far longer than the bound: a 1,500-row table.
const BIG_TABLE = ["| item | qty |", "| --- | --- |", ...Array.from({ length: 1500 }, (_, i) => `| row ${i} | ${i} |`)].join("\n");

describe("conversion pool when busy", () => {
  beforeAll(async () => {
    // The worker loads BlockNote before its first job, longer than the bound
    // under test: wait until it answers (503s meanwhile) before testing.
    const deadline = Date.now() + 110_000;
    for (;;) {
      const warm = await runConversion({ kind: "markdown", markdown: "warm" }, "Markdown").catch((err: unknown) => err);
      if (!(warm instanceof AppError) || Date.now() > deadline) return expect(warm).toMatchObject({ ok: true });
    }
  });
  afterAll(() => closeConversionPool());

  it("answers 503 with Retry-After to a job that waits past the bound, and at once to one beyond the queue", async () => {
    const busy = runConversion({ kind: "markdown", markdown: BIG_TABLE }, "Markdown");
    const waitingJob = runConversion({ kind: "markdown", markdown: "waits" }, "Markdown");
    let waitingSettled = false;
    void waitingJob.catch(() => undefined).finally(() => (waitingSettled = true));
    const [beyond] = await Promise.allSettled([runConversion({ kind: "markdown", markdown: "beyond the queue" }, "Markdown")]);
    // Refused at once: while the job ahead of it is still waiting for its bound.
    expect(waitingSettled).toBe(false);
    const [waiting] = await Promise.allSettled([waitingJob]);
    for (const outcome of [waiting, beyond]) {
      expect(outcome.status).toBe("rejected");
      const failure = (outcome as PromiseRejectedResult).reason as AppError;
      expect(failure).toBeInstanceOf(AppError);
      expect(failure.status).toBe(503);
      expect(failure.userMessage).toBe("Too many conversions in progress — retry shortly");
      expect(failure.headers).toEqual({ "Retry-After": "2" });
    }
    // The job that had the worker is unaffected, and the pool takes work again.
    expect(await busy).toMatchObject({ ok: true });
    expect(await runConversion({ kind: "markdown", markdown: "after **it**" }, "Markdown")).toMatchObject({ ok: true, contentText: "after it" });
  });
});
