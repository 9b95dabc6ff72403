/**
 * One converter's measurements, in a worker thread of its own (a fresh heap,
 * its own CPU clock): the job named in workerData, answered on parentPort.
 */
import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { blocksToMarkdown, markdownMemo, markdownToBlocks } from "../lib/body/markdown-blocks";
import { markdownOverBlocks } from "../lib/body/keep-blocks";
import { procCpuMs } from "../lib/server/linux-proc";
import { loadBaseline } from "./baseline/blocknote-conversions";

/**
 * `writeBack`: the note's own Markdown written back over it (what an agent's
 * read, edit and PATCH costs): read into blocks, each block lined up with the
 * stored one by its Markdown, and the result's Markdown.
 */
/**
 * `toMarkdownEdited`: the note's Markdown again after one block's text changed, as the
 * service writes it after a targeted edit (today: the worker's memo holds the rest).
 */
export type ConversionJob = { converter: "today" | "baseline"; direction: "toBlocks" | "toMarkdown" | "toMarkdownEdited" | "writeBack"; markdown: string; repeat: number };
/** CPU ms per conversion (the thread's own; wall time where /proc is missing), and the heap the last one left in use, in MB. */
export type ConversionAnswer = { cpuMs: number; heapMb: number; blocks: number; chars: number };

const threadCpu = () => procCpuMs("/proc/thread-self/stat") ?? performance.now();

const job = workerData as ConversionJob;
const memo = markdownMemo(4_000_000);
const convert =
  job.converter === "today"
    ? {
        toBlocks: async (markdown: string) => markdownToBlocks(markdown) as unknown[],
        toMarkdown: async (blocks: unknown[]) => blocksToMarkdown(blocks),
        toMarkdownEdited: async (blocks: unknown[]) => blocksToMarkdown(blocks, memo),
        writeBack: async (current: unknown[], markdown: string) => blocksToMarkdown(markdownOverBlocks(current, markdown)),
      }
    : await loadBaseline().then((baseline) => ({
        toBlocks: baseline.markdownToBlocks,
        toMarkdown: baseline.blocksToMarkdown,
        toMarkdownEdited: baseline.blocksToMarkdown,
        // As the service did: each block of the stored note and of the new one rendered on its own to line them up.
        writeBack: async (current: unknown[], markdown: string) => {
          const next = await baseline.markdownToBlocks(markdown);
          for (const block of [...current, ...next]) await baseline.blocksToMarkdown([block]);
          return baseline.blocksToMarkdown(next);
        },
      }));

// Once untimed (compiling the code paths), then timed.
const blocks = await convert.toBlocks(job.markdown);
if (job.direction === "toMarkdown") await convert.toMarkdown(blocks);
if (job.direction === "toMarkdownEdited") await convert.toMarkdownEdited(blocks);
/** The note with one block changed (a new id: its Markdown is written again), a different one each step. */
const edited = (step: number) => {
  const at = (step * 97) % blocks.length;
  return blocks.map((block, i) => (i === at ? { ...(block as object), id: `edited-${step}` } : block));
};
if (job.direction === "writeBack") await convert.writeBack(blocks, job.markdown);
const heapBefore = v8.getHeapStatistics().used_heap_size;
const started = threadCpu();
let chars = 0;
for (let i = 0; i < job.repeat; i += 1) {
  if (job.direction === "toBlocks") chars = JSON.stringify(await convert.toBlocks(job.markdown)).length;
  else if (job.direction === "toMarkdown") chars = (await convert.toMarkdown(blocks)).length;
  else if (job.direction === "toMarkdownEdited") chars = (await convert.toMarkdownEdited(edited(i))).length;
  else chars = (await convert.writeBack(blocks, job.markdown)).length;
}
const cpuMs = (threadCpu() - started) / job.repeat;
const answer: ConversionAnswer = { cpuMs, heapMb: Math.max(0, v8.getHeapStatistics().used_heap_size - heapBefore) / 1024 / 1024, blocks: blocks.length, chars };
parentPort!.postMessage(answer);
