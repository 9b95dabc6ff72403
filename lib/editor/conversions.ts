/**
 * The note conversions that cost real time and memory (Markdown → blocks,
 * blocks → Markdown, blocks → text). They run only inside the conversion
 * worker (conversion-worker.mjs, via lib/editor/conversion-pool.ts), never on
 * the server's request thread: a worker has its own heap limit and each job a
 * time budget, and a job over either is killed with its worker.
 *
 * Relative imports and no `server-only`: the worker loads this file with tsx,
 * outside Next's bundle.
 */
import type { ServerBlockNoteEditor } from "@blocknote/server-util";
import { contentLimitViolation } from "./content-limits";
import { contentToText } from "./content-text";
import { noteSchema, type NoteBlock, type NoteSchema } from "./schema";

type NoteServerEditor = ServerBlockNoteEditor<NoteSchema["blockSchema"], NoteSchema["inlineContentSchema"], NoteSchema["styleSchema"]>;

export type ConversionTask =
  /** A body given as Markdown: its blocks, their text and their Markdown as BlockNote writes it. */
  | { kind: "markdown"; markdown: string }
  /** A body given as JSON (a list of blocks): its Markdown and its text. */
  | { kind: "content"; content: unknown }
  /**
   * Each top-level block's Markdown on its own (null for a block BlockNote
   * cannot render), so a body written back as Markdown can be lined up with
   * the blocks it came from (lib/notes/markdown-merge.ts).
   */
  | { kind: "block-markdown"; content: unknown };

export type ConversionResult =
  | { ok: true; content?: unknown; contentText: string; markdown: string }
  | { ok: true; blockMarkdown: (string | null)[] }
  /** The input cannot be converted, or converts to content over the limits: the caller's fault, a 400. */
  | { ok: false; reason: string };

let editor: Promise<NoteServerEditor> | undefined;

/** Loads BlockNote and JSDOM once, before a worker takes its first job (so loading is not billed to a job's budget). */
export function getEditor(): Promise<NoteServerEditor> {
  // One editor per worker; conversions in a worker run one at a time, so the
  // `window`/`document` globals ServerBlockNoteEditor sets for a call never overlap.
  editor ??= import("@blocknote/server-util").then(async ({ ServerBlockNoteEditor }) => {
    const created = ServerBlockNoteEditor.create({ schema: noteSchema });
    // The Markdown parser and serializer load on first use: load them now.
    await created.blocksToMarkdownLossy(await created.tryParseMarkdownToBlocks("*warm* up"));
    return created;
  });
  return editor;
}

export async function runConversion(task: ConversionTask): Promise<ConversionResult> {
  const server = await getEditor();
  if (task.kind === "block-markdown") {
    if (!Array.isArray(task.content)) return { ok: false, reason: "Content is not BlockNote JSON" };
    const blockMarkdown: (string | null)[] = [];
    for (const block of task.content as NoteBlock[]) {
      try {
        blockMarkdown.push((await server.blocksToMarkdownLossy([block])).trim());
      } catch {
        // Not a block BlockNote knows: it lines up with nothing.
        blockMarkdown.push(null);
      }
    }
    return { ok: true, blockMarkdown };
  }
  if (task.kind === "markdown") {
    let content: unknown;
    try {
      // As JSON carries it: the blocks hold `undefined` where JSON has null (a table's unset column widths).
      content = JSON.parse(JSON.stringify(await server.tryParseMarkdownToBlocks(task.markdown)));
    } catch {
      return { ok: false, reason: "Markdown could not be converted to blocks" };
    }
    const violation = contentLimitViolation(content);
    if (violation) return { ok: false, reason: `Converts to content over the limits: ${violation}` };
    const markdown = await server.blocksToMarkdownLossy(content as NoteBlock[]);
    return { ok: true, content, contentText: contentToText(content), markdown: markdown.trim() };
  }
  try {
    const markdown = await server.blocksToMarkdownLossy(task.content as NoteBlock[]);
    return { ok: true, contentText: contentToText(task.content), markdown: markdown.trim() };
  } catch {
    // Not BlockNote JSON (the API stores any JSON value).
    return { ok: false, reason: "Content is not BlockNote JSON" };
  }
}
