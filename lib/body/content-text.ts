/**
 * The plain text of a note's body, stored as `contentText` so that what a
 * person writes in the editor is searchable (and readable) by agents too.
 *
 * Pure and total: it takes BlockNote's document JSON (`editor.document`) but
 * also anything else an API client stored as `content`, and never throws.
 * Every block becomes one line (tables one line per row, code blocks keep
 * their own line breaks); nested children follow their parent; blocks
 * without text (dividers, images without a caption) add nothing.
 */
export function contentToText(content: unknown): string {
  return textOf(content, MEDIA_WORDS);
}

/**
 * What a list shows of a note: the words people wrote (blocks, table cells,
 * captions), without the file names media blocks carry, which contentText
 * keeps for search. A note without blocks (an agent's plain text) is its
 * contentText, as the editor shows it.
 */
export function previewText(content: unknown, contentText: string): string {
  return Array.isArray(content) && content.length > 0 ? textOf(content, ["caption"]) : contentText;
}

/** The props of a media block (image, video, audio, file) that hold words. */
const MEDIA_WORDS = ["name", "caption"] as const;
type MediaWord = (typeof MEDIA_WORDS)[number];

function textOf(content: unknown, mediaWords: readonly MediaWord[]): string {
  const lines: string[] = [];
  const collect = (block: unknown) => collectBlock(block, lines, 0, mediaWords);
  if (Array.isArray(content)) {
    for (const block of content) collect(block);
  } else if (isRecord(content)) {
    // A single block rather than a document.
    collect(content);
  } else if (typeof content === "string") {
    lines.push(content);
  }
  return lines
    .map((line) => line.replace(/[ \t]+$/g, ""))
    .filter((line) => line.trim().length > 0)
    .join("\n");
}

// Deeply nested JSON from an API client must not exhaust the stack.
const MAX_DEPTH = 64;

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function collectBlock(block: unknown, lines: string[], depth: number, mediaWords: readonly MediaWord[]): void {
  if (!isRecord(block) || depth > MAX_DEPTH) return;
  const content = block.content;
  if (isRecord(content) && content.type === "tableContent") {
    collectTable(content, lines);
  } else {
    const text = inlineText(content, depth);
    if (text) lines.push(text);
  }
  // Media blocks (image, video, audio, file) carry their words in props.
  const props = isRecord(block.props) ? block.props : undefined;
  if (props) {
    for (const key of mediaWords) {
      const value = props[key];
      if (typeof value === "string" && value.trim()) lines.push(value);
    }
  }
  if (Array.isArray(block.children)) {
    for (const child of block.children) collectBlock(child, lines, depth + 1, mediaWords);
  }
}

function collectTable(table: JsonRecord, lines: string[]): void {
  if (!Array.isArray(table.rows)) return;
  for (const row of table.rows) {
    if (!isRecord(row) || !Array.isArray(row.cells)) continue;
    const cells = row.cells.map((cell) =>
      // A cell is a TableCell ({ type: "tableCell", content }) or, in older documents, bare inline content.
      isRecord(cell) ? inlineText(cell.content, 0) : inlineText(cell, 0),
    );
    const text = cells.filter((cell) => cell.length > 0).join("\t");
    if (text) lines.push(text);
  }
}

/** Text of inline content: styled text, links (their text), custom inline content, or a plain string. */
export function inlineText(content: unknown, depth = 0): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || depth > MAX_DEPTH) return "";
  let text = "";
  for (const item of content) {
    if (typeof item === "string") text += item;
    else if (isRecord(item)) {
      if (typeof item.text === "string") text += item.text;
      else if (item.content !== undefined) text += inlineText(item.content, depth + 1);
    }
  }
  return text;
}
