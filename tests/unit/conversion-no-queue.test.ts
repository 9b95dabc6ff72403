import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";

// No waiting room at all: a job that finds the one worker busy is refused.
process.env.CONVERSION_THREADS = "1";
process.env.CONVERSION_QUEUE_MAX = "0";
process.env.CONVERSION_TIMEOUT_MS = "60000";
// A loaded machine can take a while to start the worker: this test is not about waiting for one.
process.env.CONVERSION_QUEUE_TIMEOUT_MS = "120000";

const { runConversion, closeConversionPool } = await import("@/lib/body/conversion-pool");

const BIG_TABLE = ["| item | qty |", "| --- | --- |", ...Array.from({ length: 1500 }, (_, i) => `| row ${i} | ${i} |`)].join("\n");

describe("conversion pool with CONVERSION_QUEUE_MAX=0", () => {
  afterAll(() => closeConversionPool());

  it("runs the first job, which waits behind the worker's warm-up job, rather than refusing it", async () => {
    expect(await runConversion({ kind: "markdown", markdown: "first *job*" }, "Markdown")).toMatchObject({ ok: true, contentText: "first job" });
  });

  it("answers 503 with Retry-After, never a 500, to a job that finds the worker busy", async () => {
    const busy = runConversion({ kind: "markdown", markdown: BIG_TABLE }, "Markdown");
    const [refused] = await Promise.allSettled([runConversion({ kind: "markdown", markdown: "no room" }, "Markdown")]);
    expect(refused.status).toBe("rejected");
    const failure = (refused as PromiseRejectedResult).reason as AppError;
    expect(failure).toBeInstanceOf(AppError);
    expect(failure.status).toBe(503);
    expect(failure.headers).toEqual({ "Retry-After": "2" });
    expect(await busy).toMatchObject({ ok: true });
    expect(await runConversion({ kind: "markdown", markdown: "then **room**" }, "Markdown")).toMatchObject({ ok: true, contentText: "then room" });
  });
});
