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
import type { BlockNoteEditor } from "@blocknote/core";
import { contentLimitViolation } from "./content-limits";
import { contentToText } from "./content-text";
import { noteSchema, type NoteBlock, type NoteSchema } from "./schema";

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

type NoteEditor = BlockNoteEditor<NoteSchema["blockSchema"], NoteSchema["inlineContentSchema"], NoteSchema["styleSchema"]>;

/** BlockNote's conversions, each run with a DOM in place. */
type Converter = {
  markdownToBlocks(markdown: string): Promise<NoteBlock[]>;
  blocksToMarkdown(blocks: NoteBlock[]): Promise<string>;
};

let loaded: Promise<Converter> | undefined;

/** A window and its document, for BlockNote's conversions to build and read markup in. */
export type Dom = { window: unknown; document: Document };

/**
 * Loads BlockNote and the DOM once, before a worker takes its first job (so
 * loading is not billed to a job's budget). BlockNote's core, not its server
 * utilities, which also load React, React DOM and BlockNote's React views for
 * conversions that never render. The DOM is linkedom's, made to parse and
 * behave as BlockNote needs (light-dom.ts); `createDom` replaces it (tests
 * hold it to JSDOM's conversions).
 */
export function loadConverter(createDom?: () => Dom | Promise<Dom>): Promise<Converter> {
  loaded ??= (async () => {
    const [{ BlockNoteEditor, blocksToMarkdown }, dom] = await Promise.all([
      import("@blocknote/core"),
      createDom ? createDom() : import("./light-dom").then(({ createLightDom }) => createLightDom()),
    ]);
    const editor: NoteEditor = BlockNoteEditor.create({ schema: noteSchema });
    const { window, document } = dom;
    const scope = globalThis as { window?: unknown; document?: unknown };
    // Conversions in a worker run one at a time, so the `window`/`document`
    // globals BlockNote reads are set for one call and never overlap. Always
    // the window's own document: with JSDOM, a new one per call
    // (createHTMLDocument) was kept alive by the window, about 23 MB per
    // 100 KB conversion, until the worker ran out of heap.
    const withDom = async <T>(run: (document: Document) => Promise<T> | T): Promise<T> => {
      const saved = { window: scope.window, document: scope.document };
      scope.window = window;
      scope.document = document;
      try {
        return await run(document);
      } finally {
        scope.window = saved.window;
        scope.document = saved.document;
      }
    };
    const created: Converter = {
      markdownToBlocks: (markdown) => withDom(() => editor.tryParseMarkdownToBlocks(markdown)),
      blocksToMarkdown: (blocks) => withDom((document) => blocksToMarkdown(blocks, editor.pmSchema, editor, { document })),
    };
    // The Markdown parser and serializer load on first use: load them now.
    await created.blocksToMarkdown(await created.markdownToBlocks("*warm* up"));
    return created;
  })();
  return loaded;
}

export async function runConversion(task: ConversionTask): Promise<ConversionResult> {
  const converter = await loadConverter();
  if (task.kind === "block-markdown") {
    if (!Array.isArray(task.content)) return { ok: false, reason: "Content is not BlockNote JSON" };
    const blockMarkdown: (string | null)[] = [];
    for (const block of task.content as NoteBlock[]) {
      try {
        blockMarkdown.push((await converter.blocksToMarkdown([block])).trim());
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
      content = JSON.parse(JSON.stringify(await converter.markdownToBlocks(task.markdown)));
    } catch {
      return { ok: false, reason: "Markdown could not be converted to blocks" };
    }
    const violation = contentLimitViolation(content);
    if (violation) return { ok: false, reason: `Converts to content over the limits: ${violation}` };
    const markdown = await converter.blocksToMarkdown(content as NoteBlock[]);
    return { ok: true, content, contentText: contentToText(content), markdown: markdown.trim() };
  }
  try {
    const markdown = await converter.blocksToMarkdown(task.content as NoteBlock[]);
    return { ok: true, contentText: contentToText(task.content), markdown: markdown.trim() };
  } catch {
    // Not BlockNote JSON (the API stores any JSON value).
    return { ok: false, reason: "Content is not BlockNote JSON" };
  }
}
