// The cost of note conversions (Markdown → blocks, blocks → Markdown): today's
// converter (a Markdown syntax tree, lib/body/markdown-blocks.ts) against the
// one it replaced (BlockNote's own conversions in a DOM, bench/baseline/), in
// one run, each job in a fresh worker thread, CPU measured on that thread.
import { Worker } from "node:worker_threads";
import { realisticMarkdown } from "./markdown-notes";
import type { ConversionAnswer, ConversionJob } from "./conversion-job";

type ConversionRow = {
  name: string;
  /** CPU ms per conversion; null when the job went past its cap (`capped`). */
  today: ConversionAnswer | null;
  baseline: ConversionAnswer | null;
  /** The cap a job is stopped at, in ms of wall time. */
  capMs: number;
};

export type ConversionResult = {
  rows: ConversionRow[];
  /** Today's CPU for a 100 KB note over its CPU for a 10 KB note, Markdown → blocks (target ≤ 12 for 10× the size). */
  growth: number | null;
};

/** A Markdown table of about `size` characters: 4 columns, short cells. */
function markdownTable(size: number): string {
  const lines = ["| owner | task | status | due |", "| --- | --- | --- | --- |"];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const line = `| person ${i % 37} | task number ${i} with a few words | ${i % 3 ? "open" : "done"} | ${1 + (i % 28)} May |`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

function runJob(job: ConversionJob, capMs: number): Promise<ConversionAnswer | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./conversion-job.mjs", import.meta.url), { workerData: job });
    const cap = setTimeout(() => {
      void worker.terminate();
      resolve(null);
    }, capMs);
    worker.once("message", (answer: ConversionAnswer) => {
      clearTimeout(cap);
      void worker.terminate();
      resolve(answer);
    });
    worker.once("error", (err) => {
      clearTimeout(cap);
      reject(err);
    });
  });
}

export async function measureConversions(options: { quick: boolean; log: (line: string) => void }): Promise<ConversionResult> {
  const { quick, log } = options;
  const note = realisticMarkdown(1, 100_000);
  const small = realisticMarkdown(1, 10_000);
  const table = markdownTable(100_000);
  const repeat = quick ? 2 : 5;
  const cases: { name: string; direction: ConversionJob["direction"]; markdown: string; baselineRepeat: number; capMs: number }[] = [
    { name: "Markdown → blocks, 100 KB note", direction: "toBlocks", markdown: note, baselineRepeat: quick ? 1 : 3, capMs: 120_000 },
    { name: "blocks → Markdown, 100 KB note", direction: "toMarkdown", markdown: note, baselineRepeat: quick ? 1 : 3, capMs: 120_000 },
    { name: "blocks → Markdown after one block changed, 100 KB note", direction: "toMarkdownEdited", markdown: note, baselineRepeat: 1, capMs: 120_000 },
    { name: "its Markdown written back over it (PATCH), 100 KB note", direction: "writeBack", markdown: note, baselineRepeat: 1, capMs: 120_000 },
    { name: "Markdown → blocks, 10 KB note", direction: "toBlocks", markdown: small, baselineRepeat: quick ? 1 : 3, capMs: 60_000 },
    { name: "Markdown → blocks, 100 KB table", direction: "toBlocks", markdown: table, baselineRepeat: 1, capMs: quick ? 20_000 : 60_000 },
  ];
  const rows: ConversionRow[] = [];
  for (const item of cases) {
    log(`conversion: ${item.name}`);
    // /proc counts CPU in 10 ms ticks: a small note is converted ten times as often, so its time is more than a few ticks.
    const times = item.markdown.length < 50_000 ? repeat * 10 : repeat;
    const today = await runJob({ converter: "today", direction: item.direction, markdown: item.markdown, repeat: times }, item.capMs);
    const baseline = await runJob({ converter: "baseline", direction: item.direction, markdown: item.markdown, repeat: item.baselineRepeat }, item.capMs);
    rows.push({ name: item.name, today, baseline, capMs: item.capMs });
  }
  const [big, , , , tiny] = rows;
  const growth = big?.today && tiny?.today && tiny.today.cpuMs > 0 ? big.today.cpuMs / tiny.today.cpuMs : null;
  return { rows, growth };
}
