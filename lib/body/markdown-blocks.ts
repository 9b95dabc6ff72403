/**
 * A note's body between the editor's blocks and Markdown (CommonMark with
 * GitHub's tables, task items and strikethrough; a bare URL stays text, as the
 * editor stores it), every block type, prop and inline style of the editor's
 * schema mapped explicitly, through a Markdown syntax tree (mdast): read by
 * markdown-it (markdown-read.ts), written by mdast-util-to-markdown with its
 * GFM extensions. No DOM, and no step that can
 * turn a whole note into less than it was:
 *
 * - Blocks → Markdown is total. A block Markdown cannot express (video,
 *   audio, file, a table with merged cells, a block the schema does not know
 *   or cannot read) is written as an HTML comment carrying the block's JSON,
 *   and reads back as exactly that block.
 * - Markdown → blocks maps every node; what the editor has no block for
 *   (raw HTML) becomes a paragraph of its text.
 * - What Markdown cannot say about a block it can express (colours,
 *   alignment, a column's width, a toggle) is kept when the Markdown is
 *   written back over the note: see lib/body/keep-blocks.ts.
 *
 * Pure and synchronous; run in the conversion worker (conversions.ts).
 * Relative imports only: the worker loads this file outside Next's bundle.
 */
import { createHash } from "node:crypto";
import type * as M from "mdast";
import { gfmStrikethroughToMarkdown } from "mdast-util-gfm-strikethrough";
import { gfmTableToMarkdown } from "mdast-util-gfm-table";
import { gfmTaskListItemToMarkdown } from "mdast-util-gfm-task-list-item";
import { LRUCache } from "lru-cache";
import { toMarkdown, type Handle, type Options as ToMarkdownOptions } from "mdast-util-to-markdown";
import { partialBlockProblem, storedBlockProblem } from "./block-shape";
import { MarkdownNestingError, readMarkdownTree } from "./markdown-read";
import { noteSchema } from "./schema";

type Styles = { [style: string]: boolean | string };
export type StyledText = { type: "text"; text: string; styles: Styles };
type Link = { type: "link"; href: string; content: StyledText[] };
/** An image among a line's text; `href` when it is inside a link (lib/body/schema.ts). */
export type InlineImage = { type: "inlineImage"; props: { url: string; alt: string; title: string; href: string } };
export type Inline = StyledText | Link | InlineImage;
export type TableCell = { type: "tableCell"; props: Record<string, unknown>; content: Inline[] };
export type TableContent = {
  type: "tableContent";
  columnWidths: (number | null)[];
  headerRows?: number;
  headerCols?: number;
  rows: { cells: TableCell[] }[];
};
export type Block = {
  id: string;
  type: string;
  props: Record<string, unknown>;
  content?: Inline[] | TableContent;
  children: Block[];
};

/** Options for reading Markdown into blocks. */
export type ReadOptions = {
  /** Makes the id of each new block (random UUIDs unless given: tests pass a counter). */
  newId?: () => string;
};

/** Raised for Markdown that names a block it cannot carry (a block comment whose JSON is broken): the caller's fault. */
export class MarkdownBlockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MarkdownBlockError";
  }
}

const BLOCK_COMMENT = "notes:block";
const BLOCK_COMMENT_LINE = new RegExp(`^<!-- ${BLOCK_COMMENT} ([^\\n]*) -->$`);
const CHILDREN_OPEN = "<!-- notes:children -->";
const CHILDREN_CLOSE = "<!-- notes:/children -->";
/** Deepest nesting of Markdown containers read (a note's content is refused far sooner, at CONTENT_LIMITS.maxDepth). */
const MAX_NESTING = 400;

const configs = noteSchema.blockSpecs as unknown as Record<string, { config: { propSchema: Record<string, { default?: unknown }>; content: string } }>;

const defaults = new Map<string, Readonly<Record<string, unknown>>>();

/** A block type's props at their defaults, as the editor stores them (shared: copy before changing). */
function defaultProps(type: string): Readonly<Record<string, unknown>> {
  let props = defaults.get(type);
  if (!props) {
    const fresh: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(configs[type]!.config.propSchema)) {
      if (spec.default !== undefined) fresh[name] = spec.default;
    }
    props = fresh;
    defaults.set(type, props);
  }
  return props;
}

const CELL_DEFAULTS = { backgroundColor: "default", textColor: "default", textAlignment: "left" } as const;

// ───────────────────────────── blocks → Markdown ─────────────────────────────

type Flow = M.BlockContent | M.DefinitionContent;
type Phrasing = M.PhrasingContent;
type List = M.List;
type ListItem = M.ListItem;
type TableNode = M.Table;

const writeOptions: ToMarkdownOptions = {
  extensions: [gfmStrikethroughToMarkdown(), gfmTableToMarkdown(), gfmTaskListItemToMarkdown()],
  bullet: "*",
  bulletOther: "+",
  bulletOrdered: ".",
  emphasis: "*",
  strong: "*",
  fence: "`",
  fences: true,
  rule: "-",
  listItemIndent: "one",
  incrementListMarker: true,
  tightDefinitions: true,
  // A no-break space starting or ending a line is written as a reference: some readers trim it there.
  unsafe: [
    { character: "\u00A0", atBreak: true },
    { character: "\u00A0", after: "[\\r\\n]" },
  ],
};

function writeMarkdown(flow: Flow[]): string {
  if (flow.length === 0) return "";
  return toMarkdown({ type: "root", children: flow }, writeOptions).replace(/\n+$/, "");
}

/**
 * Markdown already written for runs of top-level blocks (runsOf), by a
 * SHA-256 digest of the run's JSON: a note written again with most of its
 * blocks as they were (a targeted edit, a PATCH of one block) writes only the
 * runs that changed. A run's Markdown depends on nothing but its JSON, block
 * ids included, so a run is only ever found again by content its caller
 * holds. Bounded by the characters it keeps, the least recently used going
 * first.
 */
export type MarkdownMemo = LRUCache<string, string>;

export function markdownMemo(maxChars: number): MarkdownMemo {
  return new LRUCache<string, string>({ maxSize: maxChars, sizeCalculation: (markdown, digest) => digest.length + markdown.length });
}

/**
 * The whole body as Markdown (no trailing newline); never throws on any JSON.
 * Written in runs of top-level blocks (runsOf), each run's Markdown taken
 * from the memo when it has it: the same text as the body written in one
 * piece (wholeMarkdown; tests/unit/markdown-runs.test.ts).
 */
export function blocksToMarkdown(content: unknown, memo?: MarkdownMemo): string {
  const blocks = Array.isArray(content) ? content : [content];
  if (blocks.length === 0) return "";
  validStored = new WeakSet();
  try {
    const runs = runsOf(blocks).map((run): Run => {
      const key = memo ? createHash("sha256").update(JSON.stringify(run)).digest("base64") : "";
      const markdown = memo?.get(key);
      return markdown === undefined ? { type: RUN, key, children: blocksToFlow(run) } : { type: RUN, key, children: [], markdown };
    });
    return toMarkdown({ type: "root", children: runs as unknown as Flow[] }, { ...writeOptions, handlers: { [RUN]: writeRun(memo) } as ToMarkdownOptions["handlers"] }).replace(/\n+$/, "");
  } finally {
    validStored = undefined;
  }
}

/** The body written in one piece: what blocksToMarkdown's runs must add up to. */
export function wholeMarkdown(content: unknown): string {
  validStored = new WeakSet();
  try {
    return writeMarkdown(blocksToFlow(Array.isArray(content) ? content : [content]));
  } finally {
    validStored = undefined;
  }
}

/**
 * Top-level blocks in runs whose Markdown does not depend on the runs beside
 * them. Markdown's writer joins top-level blocks with one blank line, and
 * carries one thing from one to the next: the bullet of a list just written,
 * which the next list changes when it is the same (two lists one after the
 * other, or a list first in a quote after a list). So list items stay in one
 * run with the list items and quotes that follow them; every other block is a
 * run of its own.
 */
function runsOf(blocks: readonly unknown[]): unknown[][] {
  const runs: unknown[][] = [];
  let previous: unknown;
  for (const block of blocks) {
    const run = runs.at(-1);
    if (run && isListType(previous) && (isListType(block) || typeOf(block) === "quote")) run.push(block);
    else runs.push([block]);
    previous = block;
  }
  return runs;
}

const LIST_TYPES = new Set(["bulletListItem", "numberedListItem", "checkListItem", "toggleListItem"]);

function typeOf(block: unknown): unknown {
  return typeof block === "object" && block !== null ? (block as { type?: unknown }).type : undefined;
}

function isListType(block: unknown): boolean {
  const type = typeOf(block);
  return typeof type === "string" && LIST_TYPES.has(type);
}

/**
 * A run in the document handed to Markdown's writer: its blocks' nodes, or
 * its Markdown from the memo. The writer joins runs as it joins any top-level
 * nodes, by one blank line, and forgets a list's bullet after each run, as
 * after any node that is not a list.
 */
const RUN = "notesRun";
type Run = { type: typeof RUN; key: string; children: Flow[]; markdown?: string };

function writeRun(memo: MarkdownMemo | undefined): Handle {
  return (node, _parent, state, info) => {
    const run = node as unknown as Run;
    if (run.markdown !== undefined) return run.markdown;
    const markdown = state.containerFlow(run as unknown as M.Root, info);
    memo?.set(run.key, markdown);
    return markdown;
  };
}

/**
 * Each top-level block's Markdown on its own, to line blocks written back as
 * Markdown up with the blocks they came from.
 */
export function blockMarkdownList(blocks: readonly unknown[]): string[] {
  validStored = new WeakSet();
  try {
    return blocks.map((block) => writeMarkdown(blocksToFlow([block])));
  } finally {
    validStored = undefined;
  }
}

/**
 * During one conversion, the blocks already found valid as stored: a valid
 * block's nested blocks are valid too, so each is checked once, not once per
 * level above it.
 */
let validStored: WeakSet<object> | undefined;

function markValid(block: Block): void {
  validStored?.add(block);
  for (const child of block.children) markValid(child);
}

type ListKind = "bullet" | "ordered";

function listKind(block: Block): ListKind | null {
  if (block.type === "numberedListItem") return "ordered";
  if (block.type === "bulletListItem" || block.type === "checkListItem" || block.type === "toggleListItem") return "bullet";
  return null;
}

/**
 * A block as Markdown reads it, when Markdown can carry it; null when it must
 * travel as JSON. A partial block (as clients send them: props, content or
 * children left out, text as a string) reads as the whole block it stands for.
 */
function expressible(block: unknown): Block | null {
  let b: Block;
  if (completed.has(block as object) || validStored?.has(block as object)) b = block as Block;
  else if (storedBlockProblem(block, "block") === null) {
    b = block as Block;
    markValid(b);
  }
  else if (partialBlockProblem(block, "block") === null) b = completeBlock(block as PartialBlock);
  else return null;
  if (b.type === "video" || b.type === "audio" || b.type === "file") return null;
  // A stored table may give a cell as its inline content alone (BlockNote's shorthand): read as the cell it stands for.
  if (b.type === "table" && !completed.has(b) && shorthandCells(b.content as TableContent)) b = completeBlock(b as PartialBlock);
  if (b.type === "table" && !fitsGfmTable(b.content as TableContent)) return null;
  // A paragraph of one image and nothing else reads as an image block.
  if (b.type === "paragraph" && onlyImage(b.content as Inline[])) return null;
  // An info string is read as its first word and the rest, trimmed, one space between (fenceInfo).
  if (b.type === "codeBlock" && !/^(?:\S+(?: \S(?:[^\r\n]*\S)?)?)?$/.test(String(b.props.language ?? ""))) return null;
  return b;
}

/**
 * Whether a table fits GitHub's tables: at least one row, as many cells in each, no merged cells,
 * and no code in a cell with a pipe after an odd number of backslashes (read in a cell, `\|` in
 * code is a pipe and `\\` stays two backslashes, so no code span says a backslash then a pipe).
 */
function fitsGfmTable(table: TableContent): boolean {
  if (table.rows.length === 0) return false;
  const width = table.rows[0]!.cells.length;
  if (width === 0 || table.columnWidths.length !== width) return false;
  return table.rows.every(
    (row) =>
      row.cells.length === width &&
      row.cells.every((cell) => Number(cell.props.colspan ?? 1) === 1 && Number(cell.props.rowspan ?? 1) === 1 && !cell.content.some(codeWithEscapedPipe)),
  );
}

function shorthandCells(table: TableContent): boolean {
  return table.rows.some((row) => row.cells.some((cell) => Array.isArray(cell)));
}

function onlyImage(content: readonly Inline[]): boolean {
  const shown = content.filter((item) => item.type !== "text" || item.text !== "");
  return shown.length === 1 && shown[0]!.type === "inlineImage" && shown[0]!.props.href === "";
}

const ESCAPED_PIPE = /(?:^|[^\\])(?:\\\\)*\\\|/;

function codeWithEscapedPipe(item: Inline): boolean {
  if (item.type === "link") return item.content.some(codeWithEscapedPipe);
  return item.type === "text" && item.styles.code === true && ESCAPED_PIPE.test(item.text);
}

function blocksToFlow(blocks: readonly unknown[]): Flow[] {
  const flow: Flow[] = [];
  let list: List | null = null;
  for (const raw of blocks) {
    const block = expressible(raw);
    if (!block) {
      list = null;
      flow.push(jsonComment(raw));
      continue;
    }
    const kind = listKind(block);
    if (!kind) {
      list = null;
      flow.push(...blockToFlow(block));
      continue;
    }
    // A numbered item with its own start begins a new list.
    const starts = kind === "ordered" && typeof block.props.start === "number";
    if (!list || list.ordered !== (kind === "ordered") || starts) {
      list = { type: "list", ordered: kind === "ordered", spread: false, children: [] };
      if (starts) list.start = block.props.start as number;
      flow.push(list);
    }
    list.children.push(listItem(block));
  }
  return flow;
}

function jsonComment(block: unknown): Flow {
  // `--` appears in JSON only inside strings, where `\u002d` reads back the same; so
  // the comment cannot end early. JSON has no raw line breaks: one line.
  const json = JSON.stringify(block ?? null).replace(/--/g, "-\\u002d");
  return { type: "html", value: `<!-- ${BLOCK_COMMENT} ${json} -->` };
}

function listItem(block: Block): ListItem {
  const children: Flow[] = [];
  const inline = block.content as Inline[];
  const nested = blocksToFlow(block.children);
  // An item without text is `<br>` when it is a task (Markdown has no empty task item) or when its
  // first nested block would read back as the item's text; otherwise it is empty, as Markdown writes it.
  const text = inline.length > 0 ? phrasing(inline) : [];
  if (inline.length > 0) children.push({ type: "paragraph", children: text });
  else if (block.type === "checkListItem" || startsWithText(nested)) children.push({ type: "paragraph", children: [{ type: "html", value: "<br>" }] });
  children.push(...nested);
  // Blank lines between the item's text and its nested blocks, so none runs into the one before it
  // (a table or a paragraph after a quote would; `<br>` alone on the line is HTML that runs on to a
  // blank line); only nested lists that open on the line after the text stay tight.
  const breakOnly = inline.length === 0 || (text.length === 1 && text[0]!.type === "html" && isBreakTag(text[0]!.value));
  const spread = nested.length > 0 && (breakOnly || !nested.every((node) => node.type === "list" && opensAfterText(node)));
  return { type: "listItem", spread, checked: block.type === "checkListItem" ? Boolean(block.props.checked) : null, children };
}

/**
 * Whether Markdown's first block would be read as the text of an item or quote
 * it follows: a paragraph, a line break (an empty paragraph), or a list whose
 * first item is empty (an empty item cannot start on the line of another).
 */
function startsWithText(flow: readonly Flow[]): boolean {
  const first = flow[0];
  if (first === undefined) return false;
  if (first.type === "list") return first.children[0]?.children.length === 0;
  return first.type === "paragraph" || (first.type === "html" && isBreakTag(first.value));
}

/**
 * Whether a block written on the line right after a line of text starts there, rather than being
 * read as more of that text. CommonMark reads every list opened on such a line, inside the items and
 * quotes opened before it on the same line too, as interrupting the text; and a list interrupting a
 * paragraph must start at 1 and not with an empty item (CommonMark, 5.2 and 5.3).
 */
function opensAfterText(node: Flow): boolean {
  if (node.type === "blockquote") return node.children[0] === undefined || opensAfterText(node.children[0]);
  if (node.type !== "list") return true;
  if (node.ordered && (node.start ?? 1) !== 1) return false;
  const first = node.children[0]?.children[0];
  return first !== undefined && opensAfterText(first);
}

/** A block that is not a list item, then its nested blocks between two markers. */
function blockToFlow(block: Block): Flow[] {
  const own = ownFlow(block);
  if (block.children.length === 0) return [own];
  if (own.type === "blockquote") {
    // A quote holds its nested blocks, as Markdown's quotes do; unless a quote without text
    // would start with a paragraph, which would read back as the quote's own text.
    const nested = blocksToFlow(block.children);
    if (own.children.length > 0 || !startsWithText(nested)) return [{ type: "blockquote", children: [...own.children, ...nested] }];
  }
  return [own, { type: "html", value: CHILDREN_OPEN }, ...blocksToFlow(block.children), { type: "html", value: CHILDREN_CLOSE }];
}

function ownFlow(block: Block): Flow {
  const inline = () => block.content as Inline[];
  switch (block.type) {
    case "paragraph":
      // An empty paragraph has no Markdown of its own: a line break keeps its place.
      return inline().length === 0 ? { type: "html", value: "<br>" } : { type: "paragraph", children: phrasing(inline()) };
    case "heading":
      return { type: "heading", depth: Number(block.props.level) as M.Heading["depth"], children: phrasing(inline()) };
    case "quote":
      return { type: "blockquote", children: inline().length === 0 ? [] : [{ type: "paragraph", children: phrasing(inline()) }] };
    case "codeBlock": {
      const language = String(block.props.language ?? "text");
      const space = language.indexOf(" ");
      if (language === "text" || language === "") return { type: "code", lang: null, meta: null, value: plainText(inline()) };
      return { type: "code", lang: space === -1 ? language : language.slice(0, space), meta: space === -1 ? null : language.slice(space + 1), value: plainText(inline()) };
    }
    case "divider":
      return { type: "thematicBreak" };
    case "image":
      return { type: "paragraph", children: [imageNode(block)] };
    case "table":
      return tableNode(block.content as TableContent);
    default:
      return jsonComment(block);
  }
}

function imageNode(block: Block): Phrasing {
  const name = String(block.props.name ?? "");
  const caption = String(block.props.caption ?? "");
  return { type: "image", url: String(block.props.url ?? ""), alt: name, title: caption || null };
}

function tableNode(table: TableContent): TableNode {
  return {
    type: "table",
    align: table.columnWidths.map((_, column) => columnAlignment(table, column)),
    children: table.rows.map((row) => ({
      type: "tableRow",
      children: row.cells.map((cell) => ({ type: "tableCell", children: keepCellSpaces(phrasing(cell.content)) })),
    })),
  };
}

/**
 * A cell's Markdown with white space at its very start or end written as a
 * character reference: GFM trims a cell's content, and a reference is read
 * after the trim (elsewhere mdast-util-to-markdown encodes such spaces itself).
 */
function keepCellSpaces(nodes: Phrasing[]): Phrasing[] {
  const reference = (char: string): Phrasing => ({ type: "html", value: `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};` });
  const first = nodes[0];
  if (first?.type === "text" && /^[ \t]/.test(first.value)) {
    nodes.splice(0, 1, reference(first.value[0]!), ...(first.value.length > 1 ? [{ ...first, value: first.value.slice(1) }] : []));
  }
  const last = nodes.at(-1);
  if (last?.type === "text" && /[ \t]$/.test(last.value)) {
    nodes.splice(-1, 1, ...(last.value.length > 1 ? [{ ...last, value: last.value.slice(0, -1) }] : []), reference(last.value.at(-1)!));
  }
  return nodes;
}

/** A column's alignment in Markdown: centred or right when every cell of the column is (left is Markdown's own). */
function columnAlignment(table: TableContent, column: number): "center" | "right" | null {
  const first = table.rows[0]!.cells[column]!.props.textAlignment;
  if (first !== "center" && first !== "right") return null;
  return table.rows.every((row) => row.cells[column]!.props.textAlignment === first) ? first : null;
}

type PartialBlock = { id?: string; type?: string; props?: Record<string, unknown>; content?: unknown; children?: PartialBlock[] };

/** Blocks made whole by completeBlock from a valid partial block (their nested blocks included). */
const completed = new WeakSet<object>();

function completeBlock(partial: PartialBlock): Block {
  const type = partial.type ?? "paragraph";
  const block: Block = { id: partial.id ?? "", type, props: { ...defaultProps(type), ...partial.props }, children: (partial.children ?? []).map(completeBlock) };
  completed.add(block);
  if (type === "table") block.content = completeTable(partial.content as Partial<TableContent> | undefined);
  else if (configs[type]!.config.content !== "none") block.content = completeInline(partial.content);
  return block;
}

function completeInline(content: unknown): Inline[] {
  if (content === undefined || content === "") return [];
  const items = typeof content === "string" ? [content] : (content as unknown[]);
  return items.map((item): Inline => {
    if (typeof item === "string") return { type: "text", text: item, styles: {} };
    const inline = item as { type: string; text?: string; styles?: Styles; href?: string; content?: unknown; props?: Partial<InlineImage["props"]> };
    if (inline.type === "inlineImage") return { type: "inlineImage", props: { url: "", alt: "", title: "", href: "", ...inline.props } };
    if (inline.type === "link") return { type: "link", href: inline.href ?? "", content: completeInline(inline.content) as StyledText[] };
    return { type: "text", text: inline.text ?? "", styles: inline.styles ?? {} };
  });
}

function completeTable(table: Partial<TableContent> | undefined): TableContent {
  const rows = (table?.rows ?? []).map((row) => ({
    cells: (row.cells as unknown[]).map((cell): TableCell => {
      if (typeof cell === "object" && cell !== null && !Array.isArray(cell)) {
        const full = cell as Partial<TableCell>;
        return { type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1, ...full.props }, content: completeInline(full.content) };
      }
      return { type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1 }, content: completeInline(cell) };
    }),
  }));
  const width = rows[0]?.cells.length ?? 0;
  return { ...table, type: "tableContent", columnWidths: table?.columnWidths ?? Array.from({ length: width }, () => null), rows };
}

const plainText = (content: readonly Inline[]) =>
  content.map((item) => (item.type === "link" ? item.content.map((text) => text.text).join("") : item.type === "text" ? item.text : "")).join("");

/**
 * Styles that wrap text, outermost first. Markdown has strong, emphasis,
 * strikethrough and code; underline and colours are the HTML BlockNote itself
 * writes for them.
 */
const WRAPPING_STYLES = ["textColor", "backgroundColor", "underline", "strike", "bold", "italic"] as const;

type Style = (typeof WRAPPING_STYLES)[number];

function phrasing(content: readonly Inline[]): Phrasing[] {
  return referencedBesideAstralEdges(
    styledRuns(
      content.filter((item) => item.type !== "text" || item.text !== ""),
      [],
    ),
  );
}

const ATTENTION = new Set(["strong", "emphasis", "delete"]);
const isLetter = (character: string | undefined) => character !== undefined && !/[\p{P}\p{S}\p{White_Space}]/u.test(character);
const reference = (character: string): Phrasing => ({ type: "html", value: `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};` });

/** Whether strong, emphasis or strikethrough begins (ends) with a symbol outside the BMP, an emoji. */
function astralEdge(node: Phrasing | undefined, at: "start" | "end"): boolean {
  if (node === undefined || !ATTENTION.has(node.type)) return false;
  const children = (node as M.Strong).children;
  const text = at === "start" ? children[0] : children.at(-1);
  if (text?.type !== "text") return false;
  const characters = Array.from(text.value);
  const character = at === "start" ? characters[0] : characters.at(-1);
  return character !== undefined && character.length === 2 && !isLetter(character);
}

/**
 * A letter beside strong, emphasis or strikethrough that begins (ends) with
 * an emoji, written as a character reference: CommonMark 0.31 counts the
 * emoji as punctuation, so `plan**😀**` does not open (markdown-it, the
 * reader, agrees); mdast-util-to-markdown counts it as a letter and would
 * leave the letter as it is.
 */
function referencedBesideAstralEdges(nodes: Phrasing[]): Phrasing[] {
  return nodes.flatMap((node, index): Phrasing[] => {
    if (node.type !== "text") {
      if ("children" in node) (node as M.Strong).children = referencedBesideAstralEdges(node.children as Phrasing[]);
      return [node];
    }
    const characters = Array.from(node.value);
    const head = astralEdge(nodes[index - 1], "end") && isLetter(characters[0]) ? characters.shift()! : undefined;
    const tail = astralEdge(nodes[index + 1], "start") && isLetter(characters.at(-1)) ? characters.pop()! : undefined;
    return [
      ...(head === undefined ? [] : [reference(head)]),
      ...(characters.length === 0 ? [] : [{ type: "text" as const, value: characters.join("") }]),
      ...(tail === undefined ? [] : [reference(tail)]),
    ];
  });
}

/**
 * A style's value on a piece of text, or on a link when all its text shares
 * it; undefined for an inline image, which has no styles of its own and goes
 * with the text around it (see styleValues).
 */
function styleValue(item: Inline, style: Style): string | boolean | undefined {
  if (item.type === "inlineImage") return undefined;
  if (item.type === "text") return item.styles[style] ?? false;
  let value: string | boolean | undefined;
  for (const text of item.content) {
    if (text.text === "") continue;
    const own = text.styles[style] ?? false;
    if (value === undefined) value = own;
    else if (own !== value) return false;
  }
  return value ?? false;
}

/**
 * Each item's value of a style. An image takes the value of the text before
 * it when the text after it (if any) has the same, or of the text after it
 * when it comes first; otherwise none: so `*a ![b](c) d*` and `*a ![b](c)*`
 * keep the image inside the emphasis, as they read.
 */
function styleValues(items: readonly Inline[], style: Style): (string | boolean)[] {
  const own = items.map((item) => styleValue(item, style));
  const values: (string | boolean)[] = [];
  for (let i = 0; i < own.length; i += 1) {
    const value = own[i];
    if (value !== undefined) {
      values.push(value);
      continue;
    }
    let next: string | boolean | undefined;
    for (let j = i + 1; j < own.length && next === undefined; j += 1) next = own[j];
    const previous = values[i - 1];
    values.push(previous === undefined ? (next ?? false) : next === undefined || next === previous ? previous : false);
  }
  return values;
}

const textLength = (item: Inline) =>
  item.type === "text" ? item.text.length : item.type === "link" ? item.content.reduce((sum, text) => sum + text.text.length, 0) : 0;

/**
 * Text and links grouped by their styles, so shared styles wrap once:
 * colours, underline and strikethrough outermost, in that order, then of
 * strong and emphasis the one over more text (`*a **b** c*`, not
 * `*a* ***b*** *c*`); a style all of a link's text has wraps the link.
 * Strikethrough stays outside emphasis: mdast-util-to-markdown can write
 * `~~…~~` then a word with `_` inside `_…_` so that it reads back otherwise.
 * `applied`: the styles the nodes around these already wrap.
 */
function styledRuns(items: readonly Inline[], applied: readonly Style[]): Phrasing[] {
  let style: Style | null = null;
  let most = 0;
  for (const candidate of WRAPPING_STYLES) {
    if (applied.includes(candidate)) continue;
    let covered = 0;
    for (const item of items) if ((styleValue(item, candidate) ?? false) !== false) covered += textLength(item);
    if (covered > most) {
      style = candidate;
      most = covered;
      // Colours, underline and strikethrough wrap in that order; only strong and emphasis go by the text they cover.
      if (candidate !== "bold" && candidate !== "italic") break;
    }
  }
  if (style === null) {
    return joinImageLinks(
      items.flatMap((item): Phrasing[] =>
        item.type === "link"
          ? [{ type: "link", url: item.href, title: null, children: styledRuns(item.content.filter((text) => text.text !== ""), applied) }]
          : item.type === "inlineImage"
            ? [inlineImageNode(item)]
            : leaves(item),
      ),
    );
  }
  const nodes: Phrasing[] = [];
  const values = styleValues(items, style);
  let start = 0;
  while (start < items.length) {
    const value = values[start]!;
    let end = start + 1;
    while (end < items.length && values[end] === value) end += 1;
    const run = items.slice(start, end);
    nodes.push(...(value === false ? styledRuns(run, applied) : wrap(style, value, styledRuns(run, [...applied, style]))));
    start = end;
  }
  return nodes;
}

/**
 * Neighbouring links to one address where one of them is a linked image, as
 * one link: `[a ![b](c) d](/u)` is read as a link, an image linking to /u and
 * a link (a link holds only text), and written back as it was.
 */
function joinImageLinks(nodes: Phrasing[]): Phrasing[] {
  const joined: Phrasing[] = [];
  const isImageLink = (node: M.Link) => node.children.length === 1 && node.children[0]!.type === "image";
  for (const node of nodes) {
    const last = joined.at(-1);
    if (node.type === "link" && last?.type === "link" && last.url === node.url && (isImageLink(node) || last.children.some((child) => child.type === "image"))) {
      joined[joined.length - 1] = { ...last, children: [...last.children, ...node.children] };
    } else joined.push(node);
  }
  return joined;
}

function inlineImageNode(item: InlineImage): Phrasing {
  const { url, alt, title, href } = item.props;
  const image: M.Image = { type: "image", url, alt, title: title || null };
  return href ? { type: "link", url: href, title: null, children: [image] } : image;
}

function wrap(style: Style, value: string | boolean, inner: Phrasing[]): Phrasing[] {
  switch (style) {
    case "bold":
      return [{ type: "strong", children: inner }];
    case "italic":
      return [{ type: "emphasis", children: inner }];
    case "strike":
      return [{ type: "delete", children: inner }];
    case "underline":
      return [{ type: "html", value: "<u>" }, ...inner, { type: "html", value: "</u>" }];
    case "textColor":
    case "backgroundColor": {
      const attribute = style === "textColor" ? "data-text-color" : "data-background-color";
      return [{ type: "html", value: `<span ${attribute}="${escapeAttribute(String(value))}">` }, ...inner, { type: "html", value: "</span>" }];
    }
  }
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const unescapeAttribute = (value: string) => value.replace(/&lt;/g, "<").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/**
 * One run's text, code as inline code. A line break (Shift+Enter) is `<br>`:
 * Markdown's own break cannot end a paragraph, start one or stand in a table
 * cell, and `<br>` reads back as the same break everywhere.
 */
function leaves(text: StyledText): Phrasing[] {
  const nodes: Phrasing[] = [];
  text.text.split("\n").forEach((line, index) => {
    if (index > 0) nodes.push({ type: "html", value: "<br>" });
    if (line === "") return;
    if (text.styles.code === true) nodes.push({ type: "inlineCode", value: line });
    else nodes.push(...escapedBesideAstral(line));
  });
  return nodes;
}

/**
 * A run of `_` or `*` beside a character outside the BMP (an emoji) is
 * written escaped, all of it: CommonMark 0.31 counts such a symbol as
 * punctuation when it decides what a run can open or close (so does
 * markdown-it, the reader), mdast-util-to-markdown does not, and would leave
 * `plan__😀` unescaped where it closes emphasis.
 */
function escapedBesideAstral(line: string): Phrasing[] {
  if (!/[\uD800-\uDFFF]/.test(line)) return [{ type: "text", value: line }];
  const nodes: Phrasing[] = [];
  let start = 0;
  for (const match of line.matchAll(/[_*]+/g)) {
    const before = line.charCodeAt(match.index - 1);
    const after = line.charCodeAt(match.index + match[0].length);
    if (!(before >= 0xdc00 && before <= 0xdfff) && !(after >= 0xd800 && after <= 0xdbff)) continue;
    if (match.index > start) nodes.push({ type: "text", value: line.slice(start, match.index) });
    nodes.push({ type: "html", value: match[0].replace(/./g, "\\$&") });
    start = match.index + match[0].length;
  }
  if (start < line.length) nodes.push({ type: "text", value: line.slice(start) });
  return nodes;
}

// ───────────────────────────── Markdown → blocks ─────────────────────────────

/**
 * Markdown → the editor's blocks, each complete as the editor stores it:
 * CommonMark with GitHub's tables, strikethrough and task items, read by
 * markdown-it (markdown-read.ts); no literal autolinks (a bare URL stays text).
 */
export function markdownToBlocks(markdown: string, options: ReadOptions = {}): Block[] {
  let tree: M.Root;
  try {
    // markdown-it counts a list and its item as two levels: room for MAX_NESTING of each, checked again below.
    tree = readMarkdownTree(markdown, 2 * MAX_NESTING + 8);
  } catch (err) {
    if (err instanceof MarkdownNestingError) throw new MarkdownBlockError(`Markdown nests deeper than ${MAX_NESTING} levels`);
    throw err;
  }
  const reader = new Reader(tree, options.newId ?? (() => crypto.randomUUID()));
  return reader.flow(tree.children, 0);
}

const NO_PROPS: Record<string, unknown> = Object.freeze({});

class Reader {
  private readonly definitions = new Map<string, M.Definition>();

  constructor(
    tree: M.Root,
    private readonly newId: () => string,
  ) {
    this.collectDefinitions(tree.children, 0);
  }

  /** Link reference definitions anywhere in the document (the first of a label wins, as CommonMark says). */
  private collectDefinitions(nodes: readonly M.RootContent[], depth: number): void {
    if (depth > MAX_NESTING) throw new MarkdownBlockError(`Markdown nests deeper than ${MAX_NESTING} levels`);
    for (const node of nodes) {
      if (node.type === "definition") {
        if (!this.definitions.has(node.identifier)) this.definitions.set(node.identifier, node);
      } else if (node.type === "blockquote" || node.type === "list" || node.type === "listItem") this.collectDefinitions(node.children, depth + 1);
    }
  }

  private block(type: string, props: Record<string, unknown> = NO_PROPS, content?: Inline[] | TableContent, children: Block[] = []): Block {
    const block: Block = { id: this.newId(), type, props: props === NO_PROPS ? { ...defaultProps(type) } : { ...defaultProps(type), ...props }, children };
    if (content !== undefined) block.content = content;
    return block;
  }

  /** Flow content (the document, a list item, a quote) → blocks. */
  flow(nodes: readonly M.RootContent[], depth: number): Block[] {
    const blocks: Block[] = [];
    let previousList: M.List | null = null;
    for (let index = 0; index < nodes.length; index += 1) {
      const node = nodes[index]!;
      if (node.type === "html" && node.value.trim() === CHILDREN_OPEN) {
        // The blocks up to the matching close are the previous block's nested blocks.
        let level = 1;
        let end = index + 1;
        for (; end < nodes.length; end += 1) {
          const next = nodes[end]!;
          const value = next.type === "html" ? next.value.trim() : "";
          if (value === CHILDREN_OPEN) level += 1;
          else if (value === CHILDREN_CLOSE && --level === 0) break;
        }
        const nested = this.flow(nodes.slice(index + 1, end), depth + 1);
        const parent = blocks.at(-1);
        if (parent) parent.children.push(...nested);
        else blocks.push(...nested);
        index = end;
        previousList = null;
        continue;
      }
      if (node.type === "html" && node.value.trim() === CHILDREN_CLOSE) continue;
      if (node.type === "list") {
        blocks.push(...this.list(node, previousList !== null && previousList.ordered === node.ordered, depth));
        previousList = node;
        continue;
      }
      previousList = null;
      blocks.push(...this.node(node, depth));
    }
    return blocks;
  }

  private node(node: M.RootContent, depth: number): Block[] {
    switch (node.type) {
      case "paragraph": {
        const only = node.children.length === 1 ? node.children[0]! : null;
        if (only?.type === "image") return [this.image(only.url, only.alt ?? "", only.title ?? "")];
        if (only?.type === "imageReference") {
          const definition = this.definitions.get(only.identifier);
          if (definition) return [this.image(definition.url, only.alt ?? "", definition.title ?? "")];
        }
        return [this.block("paragraph", NO_PROPS, this.inline(node.children))];
      }
      case "heading":
        return [this.block("heading", { level: node.depth }, this.inline(node.children))];
      case "blockquote":
        return this.quote(node, depth);
      case "code": {
        const language = node.lang ? (node.meta ? `${node.lang} ${node.meta}` : node.lang) : "text";
        return [this.block("codeBlock", { language }, node.value ? [{ type: "text", text: node.value, styles: {} }] : [])];
      }
      case "thematicBreak":
        return [this.block("divider")];
      case "table":
        return [this.table(node)];
      case "html":
        return this.html(node.value);
      case "definition":
        return [];
      case "list":
        return this.list(node, false, depth);
      default:
        // Phrasing that reached flow (never from the parser): its text.
        return [this.block("paragraph", NO_PROPS, this.inline([node as M.PhrasingContent]))];
    }
  }

  private image(url: string, name: string, caption: string): Block {
    return this.block("image", { url, name, caption });
  }

  /** A quote: its first paragraph is the quote's text, and every block after it nests in the quote. */
  private quote(node: M.Blockquote, depth: number): Block[] {
    if (depth >= MAX_NESTING) throw new MarkdownBlockError(`Markdown nests deeper than ${MAX_NESTING} levels`);
    const [first, ...rest] = node.children;
    if (first?.type === "paragraph") return [this.block("quote", NO_PROPS, this.inline(first.children), this.flow(rest, depth + 1))];
    // `> <br>` is a quote of one line break (an empty quote is `>`), as it is written.
    if (first?.type === "html" && isBreakTag(first.value)) return [this.block("quote", NO_PROPS, [{ type: "text", text: "\n", styles: {} }], this.flow(rest, depth + 1))];
    return [this.block("quote", NO_PROPS, [], this.flow(node.children, depth + 1))];
  }

  private list(node: M.List, followsList: boolean, depth: number): Block[] {
    if (depth >= MAX_NESTING) throw new MarkdownBlockError(`Markdown nests deeper than ${MAX_NESTING} levels`);
    return node.children.map((item, index) => {
      let type = "bulletListItem";
      const props: Record<string, unknown> = {};
      if (node.ordered) {
        type = "numberedListItem";
        const start = node.start ?? 1;
        if (index === 0 && (start !== 1 || followsList)) props.start = start;
      } else if (typeof item.checked === "boolean") {
        // An ordered item's check is dropped, as GitHub's parser drops it from the item's text.
        type = "checkListItem";
        props.checked = item.checked;
      }
      const [first, ...rest] = item.children;
      let content: Inline[] = [];
      let nested: M.RootContent[] = item.children;
      const onlyBreak = first?.type === "paragraph" ? first.children.length === 1 && first.children[0]!.type === "html" && isBreakTag(first.children[0]!.value) : first?.type === "html" && isBreakTag(first.value);
      if (onlyBreak) {
        nested = rest;
        // `* <br>` is an item of one line break (an empty item is `*`), except where `<br>` is how an
        // empty item is written: a task, or an item whose nested blocks would read as its text.
        if (typeof item.checked !== "boolean" && !startsWithText(rest)) content = [{ type: "text", text: "\n", styles: {} }];
      } else if (first?.type === "paragraph") {
        content = this.inline(first.children);
        nested = rest;
      }
      return this.block(type, props, content, this.flow(nested, depth + 1));
    });
  }

  private table(node: M.Table): Block {
    const width = Math.max(1, ...node.children.map((row) => row.children.length));
    const alignments = (node.align ?? []).map((align) => (align === "center" || align === "right" ? align : "left"));
    const rows = node.children.map((row) => {
      const cells: TableCell[] = row.children.map((cell, column) => ({
        type: "tableCell",
        props: { ...CELL_DEFAULTS, textAlignment: alignments[column] ?? "left", colspan: 1, rowspan: 1 },
        content: this.inline(cell.children),
      }));
      while (cells.length < width) cells.push({ type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1 }, content: [] });
      return { cells };
    });
    // Markdown's tables always have a header row.
    return this.block("table", NO_PROPS, { type: "tableContent", columnWidths: Array.from({ length: width }, () => null), headerRows: 1, rows });
  }

  private html(value: string): Block[] {
    const trimmed = value.trim();
    if (isBreakTag(trimmed)) return [this.block("paragraph", NO_PROPS, [])];
    const comment = BLOCK_COMMENT_LINE.exec(trimmed);
    if (comment) {
      try {
        return [JSON.parse(comment[1]!) as Block];
      } catch {
        throw new MarkdownBlockError(`A ${BLOCK_COMMENT} comment does not hold a block's JSON: ${trimmed.slice(0, 80)}`);
      }
    }
    // HTML the editor has no block for: its text, as written.
    return [this.block("paragraph", NO_PROPS, value ? [{ type: "text", text: value, styles: {} }] : [])];
  }

  /** Phrasing → the editor's inline content: styles flattened onto text, adjacent runs of equal styles merged. */
  private inline(nodes: readonly M.PhrasingContent[]): Inline[] {
    return new InlineReader(this.definitions).read(nodes);
  }
}

/** One paragraph's phrasing read into inline content. */
class InlineReader {
  private readonly out: Inline[] = [];
  /** Underline and colours opened by HTML tags, in the order opened. */
  private readonly htmlStyles: [string, string | boolean][] = [];
  /** Where text goes: the paragraph, or the link being read. */
  private target: Inline[] = this.out;
  private inLink = false;

  constructor(private readonly definitions: ReadonlyMap<string, M.Definition>) {}

  read(nodes: readonly M.PhrasingContent[]): Inline[] {
    this.walk(nodes, {});
    return this.out;
  }

  private current(styles: Styles): Styles {
    if (this.htmlStyles.length === 0) return styles;
    const all = { ...styles };
    for (const [style, value] of this.htmlStyles) all[style] = value;
    return all;
  }

  private push(text: string, styles: Styles): void {
    if (text === "") return;
    const last = this.target.at(-1);
    if (last?.type === "text" && sameStyles(last.styles, styles)) last.text += text;
    else this.target.push({ type: "text", text, styles: { ...styles } });
  }

  private walk(nodes: readonly M.PhrasingContent[], styles: Styles): void {
    for (const node of nodes) {
      switch (node.type) {
        case "text":
          this.push(node.value, this.current(styles));
          break;
        case "break":
          this.push("\n", this.current(styles));
          break;
        case "inlineCode":
          // A code span's line endings are spaces (CommonMark, 6.1).
          this.push(node.value.replace(/\r\n?|\n/g, " "), { ...this.current(styles), code: true });
          break;
        case "strong":
          this.walk(node.children, { ...styles, bold: true });
          break;
        case "emphasis":
          this.walk(node.children, { ...styles, italic: true });
          break;
        case "delete":
          this.walk(node.children, { ...styles, strike: true });
          break;
        case "link":
        case "linkReference": {
          const href = node.type === "link" ? node.url : this.definitions.get(node.identifier)?.url;
          if (this.inLink || href === undefined) {
            this.walk(node.children, styles);
            break;
          }
          const outer = this.target;
          this.target = [];
          this.inLink = true;
          this.walk(node.children, styles);
          const inside = this.target;
          this.target = outer;
          this.inLink = false;
          // A link holds text only: an image inside it is an inline image linking there, between the link's runs of text.
          let link: Link | null = null;
          for (const item of inside) {
            if (item.type === "inlineImage") {
              outer.push({ type: "inlineImage", props: { ...item.props, href } });
              link = null;
            } else if (item.type === "text") {
              if (!link) outer.push((link = { type: "link", href, content: [] }));
              link.content.push(item);
            }
          }
          if (inside.length === 0) outer.push({ type: "link", href, content: [] });
          break;
        }
        case "image":
        case "imageReference": {
          // An image among text: an inline image (inside a link, the link's address is added where the link is read).
          const definition = node.type === "imageReference" ? this.definitions.get(node.identifier) : undefined;
          const url = node.type === "image" ? node.url : definition?.url;
          const alt = node.alt ?? "";
          if (url === undefined) this.push(alt, this.current(styles));
          else this.target.push({ type: "inlineImage", props: { url, alt, title: (node.type === "image" ? node.title : definition?.title) ?? "", href: "" } });
          break;
        }
        case "html":
          if (!inlineHtml(node.value, this.htmlStyles)) this.push(node.value, this.current(styles));
          else if (isBreakTag(node.value)) this.push("\n", this.current(styles));
          break;
        default:
          break;
      }
    }
  }
}

/** Opens or closes an underline or colour span; true when the tag was one of ours. */
function inlineHtml(value: string, stack: [string, string | boolean][]): boolean {
  const tag = value.trim();
  if (isBreakTag(tag)) return true;
  if (tag === "<u>") {
    stack.push(["underline", true]);
    return true;
  }
  const span = /^<span data-(text|background)-color="([^"]*)">$/.exec(tag);
  if (span) {
    stack.push([span[1] === "text" ? "textColor" : "backgroundColor", unescapeAttribute(span[2]!)]);
    return true;
  }
  if (tag === "</u>" || tag === "</span>") {
    const style = tag === "</u>" ? "underline" : null;
    for (let index = stack.length - 1; index >= 0; index -= 1) {
      const [name] = stack[index]!;
      if (style ? name === style : name !== "underline") {
        stack.splice(index, 1);
        return true;
      }
    }
    return false;
  }
  return false;
}

const isBreakTag = (value: string) => /^<br\s*\/?>$/i.test(value.trim());

function sameStyles(a: Styles, b: Styles): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
