import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";

// A small heap and a generous time budget, so the memory limit is what stops
// the hostile job here (the time budget is exercised through the server, in
// tests/integration/hostile-content.test.ts).
process.env.CONVERSION_HEAP_MB = "48";
process.env.CONVERSION_TIMEOUT_MS = "60000";
process.env.CONVERSION_THREADS = "1";
// A loaded machine can take a while to start the worker: this test is not about waiting for one.
process.env.CONVERSION_QUEUE_TIMEOUT_MS = "120000";

const { runConversion, closeConversionPool, holdToBudget } = await import("@/lib/body/conversion-pool");

describe("conversion pool", () => {
  beforeAll(async () => {
    // Warm: the first worker loads the editor's schema and the converter.
    await runConversion({ kind: "markdown", markdown: "warm" }, "Markdown");
  });
  afterAll(() => closeConversionPool());

  it("converts Markdown to blocks, their text and their Markdown, off the calling thread", async () => {
    const result = await runConversion({ kind: "markdown", markdown: "# Plan\n\n- [x] done\n\n| a | b |\n| --- | --- |\n| 1 | 2 |" }, "Markdown");
    expect(result).toMatchObject({ ok: true, contentText: "Plan\ndone\na\tb\n1\t2" });
    expect(result.ok && "markdown" in result && (result.content as { type: string }[]).map((block) => block.type)).toEqual(["heading", "checkListItem", "table"]);
    expect(result.ok && "markdown" in result && result.markdown).toContain("* [x] done");
  });

  it("renders every block: a block it cannot express travels as its JSON, and the rest as Markdown", async () => {
    const content = [
      { type: "heading", props: { level: 2 }, content: "Plan", children: [] },
      { type: "nonsense", content: 5 },
      { type: "bulletListItem", content: "a", children: [{ type: "bulletListItem", content: "b", children: [] }] },
    ];
    expect(await runConversion({ kind: "content", content }, "Note")).toEqual({
      ok: true,
      markdown: '## Plan\n\n<!-- notes:block {"type":"nonsense","content":5} -->\n\n* a\n  * b',
    });
  });

  it("kills a job over its heap with its worker, answers 422 naming the limit, and the next job still works", async () => {
    // Four times the Markdown a note may hold: the same pattern within a note's 100,000 characters now converts within this heap.
    const hostile = "*_~".repeat(136_000);
    const failure = await runConversion({ kind: "markdown", markdown: hostile }, "Markdown").catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).status).toBe(422);
    expect((failure as AppError).userMessage).toBe("Markdown is too expensive to convert: over the 48 MB memory budget per conversion");
    const after = await runConversion({ kind: "markdown", markdown: "still **working**" }, "Markdown");
    expect(after).toMatchObject({ ok: true, contentText: "still working", markdown: "still **working**" });
  });
});

describe("a running job's time budget", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Watches a job with `budgetMs` whose thread has used `cpu()` ms of CPU, for `wallMs` of wall time; returns why it was stopped, if it was. */
  function watch(budgetMs: number, cpu: () => number | null, wallMs: number): string[] {
    const reasons: string[] = [];
    const stop = holdToBudget(7, budgetMs, (why) => reasons.push(why), cpu);
    vi.advanceTimersByTime(wallMs);
    stop();
    return reasons;
  }

  it("stops a job over its CPU budget as too expensive (422), however little wall time passed", () => {
    let used = 0;
    expect(watch(5000, () => (used += 800), 1000)[0]).toBe("timeout");
  });

  it("stops a job still under its CPU budget at three times that budget in wall time as slowed (503: the machine is busy, not the input bad)", () => {
    let used = 0;
    expect(watch(5000, () => (used += 10), 14_999)).toEqual([]);
    used = 0;
    expect(watch(5000, () => (used += 10), 15_000)).toEqual(["slowed"]);
  });

  it("gives a small budget at least 10 s of wall time before calling the job slowed", () => {
    let used = 0;
    expect(watch(100, () => (used += 0.5), 9_999)).toEqual([]);
    used = 0;
    expect(watch(100, () => (used += 0.5), 10_000)).toEqual(["slowed"]);
  });

  it("counts wall time as CPU time where the thread's CPU time cannot be read", () => {
    expect(watch(1000, () => null, 999)).toEqual([]);
    expect(watch(1000, () => null, 1000)).toEqual(["timeout"]);
  });

  it("stops watching when the job ends", () => {
    const reasons: string[] = [];
    holdToBudget(7, 1000, (why) => reasons.push(why), () => 0)();
    vi.advanceTimersByTime(20_000);
    expect(reasons).toEqual([]);
  });
});
