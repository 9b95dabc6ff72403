import "server-only";
import { runConversion } from "@/lib/body/conversion-pool";

/**
 * A note's body in its derived forms. Conversions run in the worker pool
 * (lib/body/conversion-pool.ts) under a time and memory budget, never on the
 * request thread; their cost is bounded by that budget, not by a list of
 * shapes to refuse.
 */

/** Raised when the input itself cannot be converted (the caller's fault: a 400). */
export class MarkdownConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MarkdownConversionError";
  }
}

/**
 * Markdown → BlockNote blocks (plain JSON), their plain text and their
 * Markdown as it is stored for reads. With `current` (the note's blocks as
 * stored), every block the Markdown leaves unchanged is kept exactly as stored.
 */
export async function convertMarkdownBody(markdown: string, current?: unknown): Promise<{ content: unknown[]; contentText: string; markdown: string }> {
  const result = await runConversion(current === undefined ? { kind: "markdown", markdown } : { kind: "markdown", markdown, current }, "Markdown");
  if (!result.ok) throw new MarkdownConversionError(result.reason);
  if (result.content === undefined || result.contentText === undefined) throw new Error("A Markdown conversion answered without blocks");
  return { content: result.content, contentText: result.contentText, markdown: result.markdown };
}

/**
 * The Markdown of a body given as JSON. Every block is written: those
 * Markdown cannot express travel as their JSON in a comment (see
 * lib/body/markdown-blocks.ts). Null for a body that is not a list of blocks
 * (the API stores any JSON value, or none), whose Markdown is its contentText.
 */
export async function contentToMarkdown(content: unknown): Promise<string | null> {
  if (!Array.isArray(content)) return null;
  // An empty body (every new note from the browser) needs no worker.
  if (content.length === 0) return "";
  const result = await runConversion({ kind: "content", content }, "Note");
  if (!result.ok) throw new Error(`Blocks to Markdown refused: ${result.reason}`);
  return result.markdown;
}

/** A title as a one-line `# ` heading whose characters all read literally. */
function titleHeading(title: string): string {
  const text = title
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>]/g, (char) => `\\${char}`)
    // A trailing run of `#` would be read as the heading's closing sequence.
    .replace(/(#+)$/, (run) => run.replace(/#/g, "\\#"));
  return `# ${text}`;
}

/**
 * A note's Markdown as it is written back: the title line a read put first
 * (see noteMarkdown) is not part of the body. `titles` are the titles the
 * line may be of (the note's, and a new one the same write gives); a first
 * line that is none of them is the body's own, and stays. When the body
 * itself begins with that same line (a first heading repeating the title),
 * a read has it twice, so it is taken as the title only when it is there
 * twice: the body written back alone keeps its heading.
 */
export function withoutTitleLine(markdown: string, titles: readonly string[], currentBody?: string | null): string {
  const [first, rest] = firstLine(markdown);
  if (!titles.some((title) => titleHeading(title) === first)) return markdown;
  if (currentBody && firstLine(currentBody)[0] === first && firstLine(rest)[0] !== first) return markdown;
  return rest;
}

/** The first non-blank line of a Markdown text (trailing spaces dropped), and what follows it. */
function firstLine(markdown: string): [string, string] {
  const start = markdown.replace(/^\uFEFF/, "").replace(/^(?:[ \t]*\r?\n)+/, "");
  const lineEnd = start.search(/\r?\n|$/);
  return [start.slice(0, lineEnd).trimEnd(), start.slice(lineEnd).replace(/^\r?\n/, "")];
}

/** A note as one Markdown document: the title as the first `# ` heading, then the body's stored Markdown. */
export function noteMarkdown(title: string, body: string): string {
  const trimmed = body.trim();
  return trimmed ? `${titleHeading(title)}\n\n${trimmed}\n` : `${titleHeading(title)}\n`;
}
