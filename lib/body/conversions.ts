/**
 * The note conversions that cost real time and memory (Markdown → blocks,
 * blocks → Markdown, blocks → text). They run only inside the conversion
 * worker (conversion-worker.mjs, via lib/body/conversion-pool.ts), never on
 * the server's request thread: a worker has its own heap limit and each job a
 * time budget, and a job over either is killed with its worker.
 *
 * Relative imports and no `server-only`: the worker loads this file with tsx,
 * outside Next's bundle.
 */
import { contentLimitViolation } from "./content-limits";
import { contentToText } from "./content-text";
import { blocksToMarkdown, MarkdownBlockError, markdownMemo, markdownToBlocks } from "./markdown-blocks";
import { markdownOverBlocks } from "./keep-blocks";

export type ConversionTask =
  /**
   * A body given as Markdown: its blocks, their text and their Markdown. With
   * `current` (the note's blocks as stored), every block the Markdown leaves
   * unchanged stays exactly as stored (lib/body/keep-blocks.ts).
   */
  | { kind: "markdown"; markdown: string; current?: unknown }
  /** A body given as JSON: its Markdown (its text is the writer's: given, or derived where the body is checked). */
  | { kind: "content"; content: unknown };

export type ConversionResult =
  /** Blocks and their text only for a body given as Markdown. */
  | { ok: true; content?: unknown[]; contentText?: string; markdown: string }
  /** The input cannot be converted, or converts to content over the limits: the caller's fault, a 400. */
  | { ok: false; reason: string };

/** Runs one small conversion, so a worker has loaded and compiled the converter before its first job. */
export function warmConverter(): void {
  blocksToMarkdown(markdownToBlocks("*warm* up"));
}

/**
 * This worker's Markdown of the top-level blocks it has written lately: a note
 * written again with one block changed (a targeted edit's render, a PATCH of
 * one block) writes the Markdown of that block only. Half a million
 * characters, about 2 MB of heap: the runs of three 100 KB notes, enough for
 * the notes being edited.
 */
const memo = markdownMemo(500_000);

export async function runConversion(task: ConversionTask): Promise<ConversionResult> {
  if (task.kind === "markdown") {
    let content: unknown[];
    try {
      content = Array.isArray(task.current) ? markdownOverBlocks(task.current, task.markdown) : markdownToBlocks(task.markdown);
    } catch (err) {
      if (err instanceof MarkdownBlockError) return { ok: false, reason: err.message };
      throw err;
    }
    const violation = contentLimitViolation(content);
    if (violation) return { ok: false, reason: `Converts to content over the limits: ${violation}` };
    return { ok: true, content, contentText: contentToText(content), markdown: blocksToMarkdown(content, memo) };
  }
  return { ok: true, markdown: blocksToMarkdown(task.content, memo) };
}
