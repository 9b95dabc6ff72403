import "server-only";
import type { ServerBlockNoteEditor } from "@blocknote/server-util";
import { noteSchema, type NoteBlock, type NoteSchema } from "@/lib/editor/schema";

type NoteServerEditor = ServerBlockNoteEditor<NoteSchema["blockSchema"], NoteSchema["inlineContentSchema"], NoteSchema["styleSchema"]>;

/**
 * One server editor per process, shared by every route bundle (Next.js may load
 * this module once per bundle, hence globalThis). Conversions run one at a
 * time: ServerBlockNoteEditor points the `window`/`document` globals at its
 * JSDOM for the length of a call and restores them afterwards, so two calls in
 * flight at once could leave them set for the rest of the process.
 */
const globalKey = Symbol.for("notes.markdown");
type MarkdownState = { editor?: Promise<NoteServerEditor>; queue: Promise<unknown> };

function state(): MarkdownState {
  const store = globalThis as typeof globalThis & { [globalKey]?: MarkdownState };
  return (store[globalKey] ??= { queue: Promise.resolve() });
}

function getEditor(): Promise<NoteServerEditor> {
  const current = state();
  if (!current.editor) {
    // Loaded on first use: JSDOM is heavy, and most requests never convert.
    const pending = import("@blocknote/server-util").then(({ ServerBlockNoteEditor }) =>
      ServerBlockNoteEditor.create({ schema: noteSchema }),
    );
    // A failed load is a server fault, retried on the next call rather than cached.
    pending.catch(() => {
      if (current.editor === pending) current.editor = undefined;
    });
    current.editor = pending;
  }
  return current.editor;
}

/**
 * Runs one conversion after the ones before it. Only the conversion's own
 * failures become MarkdownConversionError; a failure to load the editor stays
 * what it is (a 500, not the caller's fault).
 */
async function convert<T>(fn: (editor: NoteServerEditor) => Promise<T>, message: string): Promise<T> {
  const editor = await getEditor();
  const current = state();
  const run = current.queue.then(() => fn(editor));
  current.queue = run.catch(() => undefined);
  try {
    return await run;
  } catch (err) {
    throw new MarkdownConversionError(message, { cause: err });
  }
}

/** Raised when BlockNote cannot convert a document (for example Markdown nested thousands deep). */
export class MarkdownConversionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MarkdownConversionError";
  }
}

/**
 * How deep Markdown may nest (block quotes, list items, HTML elements). BlockNote's
 * parser takes time and memory growing with the square of the depth, all on
 * the event loop: a few thousand `>` in a row exhaust the heap. Real documents
 * stay far below this.
 */
export const MARKDOWN_MAX_NESTING = 24;

// The container markers that open a line: spaces, tabs, `>` and list markers.
const LINE_CONTAINERS = /^(?:[ \t>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;
const HTML_TAG = /<(\/?)([a-zA-Z][\w-]*)\b[^<>]*?(\/?)>/g;
const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** An upper bound of the Markdown's nesting depth, counted cheaply line by line. */
export function markdownNestingDepth(markdown: string): number {
  let deepest = 0;
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    // Indentation inside a fenced code block is code, not nesting.
    const fenceMark = /^[ \t>]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (fence === null || fenceMark.startsWith(fence))) {
      fence = fence === null ? fenceMark : null;
      continue;
    }
    if (fence !== null) continue;
    const prefix = LINE_CONTAINERS.exec(line)?.[0] ?? "";
    if (prefix.length === 0) continue;
    let columns = 0;
    let markers = 0;
    for (const char of prefix) {
      if (char === " ") columns += 1;
      else if (char === "\t") columns += 4;
      else if (char === ">" || char === "-" || char === "*" || char === "+" || char === "." || char === ")") markers += 1;
    }
    deepest = Math.max(deepest, markers + Math.floor(columns / 2));
  }
  let depth = 0;
  for (const [, closing, name, selfClosing] of markdown.matchAll(HTML_TAG)) {
    if (VOID_ELEMENTS.has(name!.toLowerCase()) || selfClosing) continue;
    depth = closing ? Math.max(depth - 1, 0) : depth + 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/**
 * Markdown → BlockNote blocks of the note schema, as plain JSON: the blocks
 * carry `undefined` where JSON has null (a table's unset column widths), which
 * a JSON column refuses, so they go through JSON once, as a browser's would.
 */
export async function markdownToBlocks(markdown: string): Promise<NoteBlock[]> {
  if (markdownNestingDepth(markdown) > MARKDOWN_MAX_NESTING) {
    throw new MarkdownConversionError(`Markdown may nest at most ${MARKDOWN_MAX_NESTING} levels deep (block quotes, lists, HTML)`);
  }
  const blocks = await convert((editor) => editor.tryParseMarkdownToBlocks(markdown), "Markdown could not be converted to blocks");
  return JSON.parse(JSON.stringify(blocks)) as NoteBlock[];
}

/** BlockNote blocks → Markdown (lossy: colours, alignment and the like have no Markdown form). */
export async function blocksToMarkdown(blocks: unknown): Promise<string> {
  if (!Array.isArray(blocks)) throw new MarkdownConversionError("Content is not a list of blocks");
  return convert((editor) => editor.blocksToMarkdownLossy(blocks as NoteBlock[]), "Content could not be converted to Markdown");
}

/** A title as a one-line `# ` heading whose characters all read literally. */
export function titleHeading(title: string): string {
  const text = title
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>]/g, (char) => `\\${char}`)
    // A trailing run of `#` would be read as the heading's closing sequence.
    .replace(/(#+)$/, (run) => run.replace(/#/g, "\\#"));
  return `# ${text}`;
}

/**
 * A note as one Markdown document: the title as the first `# ` heading, then
 * the body. A body that is not BlockNote JSON (the API stores any JSON value)
 * is given as its plain text rather than failing the read.
 */
export async function noteToMarkdown(note: { title: string; content: unknown; contentText: string }): Promise<string> {
  let body: string;
  try {
    body = await blocksToMarkdown(note.content);
  } catch (err) {
    if (!(err instanceof MarkdownConversionError)) throw err;
    body = note.contentText;
  }
  body = body.trim();
  return body ? `${titleHeading(note.title)}\n\n${body}\n` : `${titleHeading(note.title)}\n`;
}
