import { afterAll, describe, expect, it } from "vitest";
import { HOSTILE_MARKDOWN } from "@/bench/hostile-content";
import { AppError } from "@/lib/errors";

// The reader's slow cases (emphasis runs, deep quotes) are bounded by the
// conversion worker's budgets, not by the reader: 1 s of CPU per conversion here.
process.env.CONVERSION_TIMEOUT_MS = "1000";
process.env.CONVERSION_THREADS = "1";
process.env.CONVERSION_QUEUE_TIMEOUT_MS = "120000";

const { runConversion, closeConversionPool } = await import("@/lib/body/conversion-pool");

describe("every hostile Markdown body of the benchmark, in the conversion pool", () => {
  afterAll(() => closeConversionPool());

  it.each(Object.entries(HOSTILE_MARKDOWN))("%s: is converted, refused as Markdown the reader cannot read, or stopped at its budget (422; 503 on a machine too busy)", async (_name, markdown) => {
    const answer = await runConversion({ kind: "markdown", markdown }, "Markdown").catch((err: unknown) => err);
    if (answer instanceof AppError && answer.status === 503) {
      // A machine too busy to give the job its CPU in time: retry later, as the API answers it.
      expect(answer.headers).toMatchObject({ "Retry-After": expect.any(String) });
      return;
    }
    if (answer instanceof AppError) {
      expect(answer.status).toBe(422);
      expect(answer.userMessage).toMatch(/^Markdown is too expensive to convert: over the (1 s time|\d+ MB memory) budget per conversion$/);
      return;
    }
    expect(answer).toMatchObject({ ok: expect.any(Boolean) });
    const result = answer as { ok: boolean; reason?: string; content?: unknown };
    if (result.ok) expect(Array.isArray(result.content)).toBe(true);
    else expect(result.reason).toMatch(/^Markdown nests deeper|comment does not hold|Converts to content over the limits/);
  });
});
