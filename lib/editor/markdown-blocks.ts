/**
 * A note's body between the editor's blocks and Markdown (CommonMark with
 * GitHub's tables, task items and strikethrough; a bare URL stays text, as the
 * editor stores it), every block type, prop and inline style of the editor's
 * schema mapped explicitly. Markdown is read from markdown-it's token stream
 * (with GitHub's readings where markdown-it differs: markdown-it-rules.ts) and
 * written from a small syntax tree of the blocks (markdown-writer.ts). No DOM,
 * and no step that can turn a whole note into less than it was:
 *
 * - Blocks → Markdown is total. A block Markdown cannot express (video,
 *   audio, file, a table with merged cells, a block the schema does not know
 *   or cannot read) is written as an HTML comment carrying the block's JSON,
 *   and reads back as exactly that block.
 * - Markdown → blocks maps every node; what the editor has no block for
 *   (raw HTML) becomes a paragraph of its text.
 * - What Markdown cannot say about a block it can express (colours,
 *   alignment, a column's width, a toggle) is kept when the Markdown is
 *   written back over the note: see lib/editor/markdown-merge.ts.
 *
 * Pure and synchronous; run in the conversion worker (conversions.ts).
 * Relative imports only: the worker loads this file outside Next's bundle.
 */
import MarkdownIt, { type Token } from "markdown-it";
import { partialBlockProblem, storedBlockProblem } from "./block-shape";
import { parseLinkLabel } from "./markdown-it-link-label";
import { codeSpan, scanDelims, strikethrough, strikethroughPairs, table } from "./markdown-it-rules";
import { writeMarkdown, type Flow, type List, type ListItem, type Phrasing, type TableNode } from "./markdown-writer";
import { noteSchema } from "./schema";

type Styles = { [style: string]: boolean | string };
export type StyledText = { type: "text"; text: string; styles: Styles };
type Link = { type: "link"; href: string; content: StyledText[] };
export type Inline = StyledText | Link;
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


/** The whole body as Markdown (no trailing newline); never throws on any JSON. */
export function blocksToMarkdown(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  validStored = new WeakSet();
  try {
    return writeMarkdown(blocksToFlow(blocks));
  } finally {
    validStored = undefined;
  }
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
  if (b.type === "table" && !fitsGfmTable(b.content as TableContent)) return null;
  if (b.type === "codeBlock" && !/^[^\s`]*$/.test(String(b.props.language ?? ""))) return null;
  return b;
}

/** Whether a table fits GitHub's tables: at least one row, as many cells in each, no merged cells. */
function fitsGfmTable(table: TableContent): boolean {
  if (table.rows.length === 0) return false;
  const width = table.rows[0]!.cells.length;
  if (width === 0 || table.columnWidths.length !== width) return false;
  return table.rows.every(
    (row) => row.cells.length === width && row.cells.every((cell) => Number(cell.props.colspan ?? 1) === 1 && Number(cell.props.rowspan ?? 1) === 1),
  );
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
  // An empty item is `<br>`: Markdown has no empty task item, and the first nested block must not become the item's text.
  children.push({ type: "paragraph", children: inline.length > 0 ? phrasing(inline) : [{ type: "html", value: "<br>" }] });
  children.push(...blocksToFlow(block.children));
  // Blank lines between the item's text and its nested blocks, so none runs into the one before it
  // (a table or a paragraph after a quote would); only a plain nested list stays tight.
  const spread = block.children.length > 0 && (inline.length === 0 || !block.children.every(startsListAfterText));
  return { type: "listItem", spread, checked: block.type === "checkListItem" ? Boolean(block.props.checked) : null, children };
}

/** Whether a nested block is a list item whose Markdown starts a list right after a line of text (an ordered list must start at 1). */
function startsListAfterText(nested: unknown): boolean {
  const block = expressible(nested);
  if (!block) return false;
  if (block.type === "numberedListItem") return block.props.start === undefined || block.props.start === 1;
  return listKind(block) === "bullet";
}

/** A block that is not a list item, then its nested blocks between two markers. */
function blockToFlow(block: Block): Flow[] {
  const own = ownFlow(block);
  if (block.children.length === 0) return [own];
  return [own, { type: "html", value: CHILDREN_OPEN }, ...blocksToFlow(block.children), { type: "html", value: CHILDREN_CLOSE }];
}

function ownFlow(block: Block): Flow {
  const inline = () => block.content as Inline[];
  switch (block.type) {
    case "paragraph":
      // An empty paragraph has no Markdown of its own: a line break keeps its place.
      return inline().length === 0 ? { type: "html", value: "<br>" } : { type: "paragraph", children: phrasing(inline()) };
    case "heading":
      return { type: "heading", depth: Number(block.props.level), children: phrasing(inline()) };
    case "quote":
      return { type: "blockquote", children: inline().length === 0 ? [] : [{ type: "paragraph", children: phrasing(inline()) }] };
    case "codeBlock": {
      const language = String(block.props.language ?? "text");
      return { type: "code", lang: language === "text" ? null : language || null, meta: null, value: plainText(inline()) };
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
    align: table.columnWidths.map(() => null),
    children: table.rows.map((row) => ({
      type: "tableRow",
      children: row.cells.map((cell) => ({ type: "tableCell", children: phrasing(cell.content) })),
    })),
  };
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
    const inline = item as { type: string; text?: string; styles?: Styles; href?: string; content?: unknown };
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

const plainText = (content: readonly Inline[]) => content.map((item) => (item.type === "link" ? item.content.map((text) => text.text).join("") : item.text)).join("");

/**
 * Styles that wrap text, outermost first. Markdown has strong, emphasis,
 * strikethrough and code; underline and colours are the HTML BlockNote itself
 * writes for them.
 */
const WRAPPING_STYLES = ["textColor", "backgroundColor", "underline", "strike", "bold", "italic"] as const;

function phrasing(content: readonly Inline[]): Phrasing[] {
  const nodes: Phrasing[] = [];
  let run: StyledText[] = [];
  const flush = () => {
    if (run.length > 0) nodes.push(...styledRuns(run, 0));
    run = [];
  };
  for (const item of content) {
    if (item.type === "link") {
      flush();
      nodes.push({ type: "link", url: item.href, title: null, children: styledRuns(item.content.filter((text) => text.text !== ""), 0) });
    } else if (item.text !== "") run.push(item);
  }
  flush();
  return nodes;
}

const styleValue = (text: StyledText, style: string) => text.styles[style] ?? false;

function anyHas(runs: readonly StyledText[], style: string): boolean {
  for (const text of runs) if (styleValue(text, style) !== false) return true;
  return false;
}

/** Runs of text grouped by their styles, outermost style first, so shared styles wrap once. */
function styledRuns(runs: readonly StyledText[], from: number): Phrasing[] {
  let depth = from;
  // Styles no run has wrap nothing.
  while (depth < WRAPPING_STYLES.length && !anyHas(runs, WRAPPING_STYLES[depth]!)) depth += 1;
  if (depth === WRAPPING_STYLES.length) return runs.flatMap(leaves);
  const style = WRAPPING_STYLES[depth]!;
  const nodes: Phrasing[] = [];
  let start = 0;
  while (start < runs.length) {
    const value = styleValue(runs[start]!, style);
    let end = start + 1;
    while (end < runs.length && styleValue(runs[end]!, style) === value) end += 1;
    const inner = styledRuns(runs.slice(start, end), depth + 1);
    nodes.push(...(value === false ? inner : wrap(style, value, inner)));
    start = end;
  }
  return nodes;
}

function wrap(style: (typeof WRAPPING_STYLES)[number], value: string | boolean, inner: Phrasing[]): Phrasing[] {
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
  if (!text.text.includes("\n")) return text.text === "" ? [] : [text.styles.code === true ? { type: "inlineCode", value: text.text } : { type: "text", value: text.text }];
  const nodes: Phrasing[] = [];
  text.text.split("\n").forEach((line, index) => {
    if (index > 0) nodes.push({ type: "html", value: "<br>" });
    if (line !== "") nodes.push(text.styles.code === true ? { type: "inlineCode", value: line } : { type: "text", value: line });
  });
  return nodes;
}

// ───────────────────────────── Markdown → blocks ─────────────────────────────

/**
 * CommonMark with GitHub's tables and strikethrough; no linkify (a bare URL
 * stays text). Link addresses are kept as written (no percent-encoding, any
 * scheme), as the editor stores them. A new parser on each call (the tests
 * set one beside markdown-it's own parseLinkLabel).
 */
export function markdownParser(): MarkdownIt {
  const parser = new MarkdownIt("commonmark").enable(["table", "strikethrough"]);
  // Not in the options' types, but read by the parser (the preset's 20 is shallower than notes nest).
  (parser.options as { maxNesting?: number }).maxNesting = MAX_NESTING;
  parser.validateLink = () => true;
  parser.normalizeLink = (url) => url;
  parser.normalizeLinkText = (text) => text;
  // As GitHub's parser reads code spans, strikethrough and table rows wider than their header (markdown-it-rules.ts).
  parser.inline.ruler.at("backticks", codeSpan);
  parser.inline.ruler.at("strikethrough", strikethrough);
  parser.inline.ruler2.at("strikethrough", strikethroughPairs);
  parser.block.ruler.at("table", table, { alt: ["paragraph", "reference"] });
  class GithubInlineState extends parser.inline.State {}
  GithubInlineState.prototype.scanDelims = scanDelims;
  parser.inline.State = GithubInlineState;
  // Escapes and entities stay tokens of their own: the reader joins adjacent text itself.
  parser.core.ruler.disable("text_join");
  // markdown-it's answers in linear time on text full of brackets (markdown-it-link-label.ts).
  parser.helpers.parseLinkLabel = parseLinkLabel;
  return parser;
}

const parser = markdownParser();
const unescapeAll = (text: string) => parser.utils.unescapeAll(text);

/** A block token with the tokens it opens, as a tree. */
type FlowNode = { type: string; token: Token; children: FlowNode[] };

const openedTypes = new Map<string, string>();

/** `bullet_list` for `bullet_list_open`, and so on. */
function openedType(type: string): string {
  let opened = openedTypes.get(type);
  if (opened === undefined) {
    opened = type.slice(0, -"_open".length);
    openedTypes.set(type, opened);
  }
  return opened;
}

function flowTree(tokens: readonly Token[]): FlowNode[] {
  const root: FlowNode[] = [];
  const open: FlowNode[][] = [root];
  for (const token of tokens) {
    if (token.nesting === -1) {
      open.pop();
      continue;
    }
    const node: FlowNode = { type: token.nesting === 1 ? openedType(token.type) : token.type, token, children: [] };
    open.at(-1)!.push(node);
    if (token.nesting === 1) open.push(node.children);
  }
  return root;
}

/** A task item's check at the start of its first paragraph, as GitHub reads it: `[ ]`, `[x]` or `[X]`, then a space or tab before more text, or a line ending. */
const TASK_CHECK = /^\[([ \t\nxX])\](?:\n|[ \t]+[^ \t])/;

/** Markdown → the editor's blocks, each complete as the editor stores it. */
export function markdownToBlocks(markdown: string, options: ReadOptions = {}): Block[] {
  const env: Record<string, unknown> = {};
  const tokens = parser.parse(markdown, env);
  // Past this depth markdown-it stops reading: refuse rather than drop the rest.
  if (tokens.some((token) => token.level >= MAX_NESTING - 1)) throw new MarkdownBlockError(`Markdown nests deeper than ${MAX_NESTING} levels`);
  const reader = new Reader(env, options.newId ?? (() => crypto.randomUUID()));
  return reader.flow(flowTree(tokens));
}

const NO_PROPS: Record<string, unknown> = Object.freeze({});

class Reader {
  constructor(
    private readonly env: Record<string, unknown>,
    private readonly newId: () => string,
  ) {}

  private block(type: string, props: Record<string, unknown> = NO_PROPS, content?: Inline[] | TableContent, children: Block[] = []): Block {
    const block: Block = { id: this.newId(), type, props: props === NO_PROPS ? { ...defaultProps(type) } : { ...defaultProps(type), ...props }, children };
    if (content !== undefined) block.content = content;
    return block;
  }

  /** Flow content (the document, a list item, a quote) → blocks. */
  flow(nodes: readonly FlowNode[]): Block[] {
    const blocks: Block[] = [];
    let previousList: FlowNode | null = null;
    for (let index = 0; index < nodes.length; index += 1) {
      const node = nodes[index]!;
      if (node.type === "html_block" && htmlValue(node).trim() === CHILDREN_OPEN) {
        // The blocks up to the matching close are the previous block's nested blocks.
        let depth = 1;
        let end = index + 1;
        for (; end < nodes.length; end += 1) {
          const value = nodes[end]!.type === "html_block" ? htmlValue(nodes[end]!).trim() : "";
          if (value === CHILDREN_OPEN) depth += 1;
          else if (value === CHILDREN_CLOSE && --depth === 0) break;
        }
        const nested = this.flow(nodes.slice(index + 1, end));
        const parent = blocks.at(-1);
        if (parent) parent.children.push(...nested);
        else blocks.push(...nested);
        index = end;
        previousList = null;
        continue;
      }
      if (node.type === "html_block" && htmlValue(node).trim() === CHILDREN_CLOSE) continue;
      if (node.type === "bullet_list" || node.type === "ordered_list") {
        blocks.push(...this.list(node, previousList !== null && previousList.type === node.type));
        previousList = node;
        continue;
      }
      previousList = null;
      blocks.push(...this.node(node));
    }
    return blocks;
  }

  private node(node: FlowNode): Block[] {
    switch (node.type) {
      case "paragraph": {
        const inline = inlineTokens(node);
        if (inline.length === 1 && inline[0]!.type === "image") {
          const image = inline[0]!;
          return [this.image(image.attrGet("src") ?? "", plainOf(image.children ?? []), image.attrGet("title") ?? "")];
        }
        return [this.block("paragraph", NO_PROPS, this.inline(inline))];
      }
      case "heading":
        return [this.block("heading", { level: Number(node.token.tag.slice(1)) }, this.inline(inlineTokens(node)))];
      case "blockquote":
        return this.quote(node);
      case "fence":
      case "code_block": {
        const value = node.token.content.replace(/\n$/, "");
        return [this.block("codeBlock", { language: node.type === "fence" ? fenceLanguage(node.token.info) : "text" }, value ? [{ type: "text", text: value, styles: {} }] : [])];
      }
      case "hr":
        return [this.block("divider")];
      case "table":
        return [this.table(node)];
      case "html_block":
        return this.html(htmlValue(node));
      default:
        return this.list(node, false);
    }
  }

  private image(url: string, name: string, caption: string): Block {
    return this.block("image", { url, name, caption });
  }

  private quote(node: FlowNode): Block[] {
    const blocks: Block[] = [];
    const rest: FlowNode[] = [];
    for (const child of node.children) {
      // Each paragraph is a quote block; anything else nests in the quote before it.
      if (child.type === "paragraph" && rest.length === 0) blocks.push(this.block("quote", NO_PROPS, this.inline(inlineTokens(child))));
      // `> <br>` is a quote of one line break (an empty quote is `>`), as it is written.
      else if (child.type === "html_block" && blocks.length === 0 && rest.length === 0 && isBreakTag(htmlValue(child))) blocks.push(this.block("quote", NO_PROPS, [{ type: "text", text: "\n", styles: {} }]));
      else if (child.type === "paragraph" && blocks.length > 0) {
        blocks.at(-1)!.children.push(...this.flow(rest.splice(0)));
        blocks.push(this.block("quote", NO_PROPS, this.inline(inlineTokens(child))));
      } else rest.push(child);
    }
    if (blocks.length === 0) blocks.push(this.block("quote", NO_PROPS, []));
    blocks.at(-1)!.children.push(...this.flow(rest));
    return blocks;
  }

  private list(node: FlowNode, followsList: boolean): Block[] {
    const ordered = node.type === "ordered_list";
    return node.children.map((item, index) => {
      let type = "bulletListItem";
      const props: Record<string, unknown> = {};
      if (ordered) {
        type = "numberedListItem";
        const start = Number(node.token.attrGet("start") ?? 1);
        if (index === 0 && (start !== 1 || followsList)) props.start = start;
      }
      const [first, ...rest] = item.children;
      let content: Inline[] = [];
      let nested: FlowNode[] = item.children;
      if (first?.type === "paragraph") {
        let inline = inlineTokens(first);
        const source = first.children[0]!.token.content;
        const check = TASK_CHECK.exec(source);
        if (check) {
          // The check and the one space after it are not the item's text (an ordered item drops them too, as GitHub's parser does).
          inline = [];
          parser.inline.parse(afterCheck(source), parser, this.env, inline);
          if (!ordered) {
            type = "checkListItem";
            props.checked = check[1] === "x" || check[1] === "X";
          }
        }
        content = this.inline(inline);
        nested = rest;
      } else if (first?.type === "html_block" && isBreakTag(htmlValue(first))) nested = rest;
      return this.block(type, props, content, this.flow(nested));
    });
  }

  private table(node: FlowNode): Block {
    const rowNodes = node.children.flatMap((section) => section.children);
    const width = Math.max(1, ...rowNodes.map((row) => row.children.length));
    const rows = rowNodes.map((row) => {
      const cells: TableCell[] = row.children.map((cell) => ({ type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1 }, content: this.inline(inlineTokens(cell)) }));
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

  /** Inline tokens → the editor's inline content: styles flattened onto text, adjacent runs of equal styles merged. */
  private inline(tokens: readonly Token[]): Inline[] {
    // `<br>` alone is how an empty block is written.
    if (tokens.length === 1 && tokens[0]!.type === "html_inline" && isBreakTag(tokens[0]!.content)) return [];
    return new InlineReader().read(tokens);
  }
}

/** One run of inline tokens read into inline content (a class, not closures: the worker's tsx wraps each closure it makes). */
class InlineReader {
  private readonly out: Inline[] = [];
  /** Underline and colours opened by HTML tags, in the order opened. */
  private readonly htmlStyles: [string, string | boolean][] = [];
  /** Styles of the open strong, emphasis and strikethrough, innermost last. */
  private readonly styleStack: Styles[] = [{}];
  /** Where text goes: the paragraph, or the link being read. */
  private readonly targets: Inline[][] = [this.out];
  /** For each open link: the link being read, or null for a link inside a link (its text only). */
  private readonly links: (Link | null)[] = [];
  /** The styles of text here, until a style opens or closes. */
  private styles: Styles | null = null;

  private current(): Styles {
    if (this.styles) return this.styles;
    const styles = { ...this.styleStack.at(-1)! };
    for (const [style, value] of this.htmlStyles) styles[style] = value;
    this.styles = styles;
    return styles;
  }

  private push(text: string, styles: Styles): void {
    if (text === "") return;
    const target = this.targets.at(-1)!;
    const last = target.at(-1);
    // The last text took its styles from this same object (no style changed since): no need to compare.
    if (last?.type === "text" && ((last === this.lastText && styles === this.lastStyles) || sameStyles(last.styles, styles))) last.text += text;
    else {
      this.lastText = { type: "text", text, styles: { ...styles } };
      target.push(this.lastText);
    }
    this.lastStyles = styles;
  }

  /** The last text made, and the styles object it was made from. */
  private lastText: StyledText | null = null;
  private lastStyles: Styles | null = null;

  private open(style: string): void {
    this.styleStack.push({ ...this.styleStack.at(-1)!, [style]: true });
    this.styles = null;
  }

  read(tokens: readonly Token[]): Inline[] {
    for (const token of tokens) {
      switch (token.type) {
        case "text":
        case "text_special":
          this.push(token.content, this.current());
          break;
        case "softbreak":
        case "hardbreak":
          this.push("\n", this.current());
          break;
        case "code_inline":
          this.push(token.content, { ...this.current(), code: true });
          break;
        case "strong_open":
          this.open("bold");
          break;
        case "em_open":
          this.open("italic");
          break;
        case "s_open":
          this.open("strike");
          break;
        case "strong_close":
        case "em_close":
        case "s_close":
          this.styleStack.pop();
          this.styles = null;
          break;
        case "link_open":
          if (this.links.length > 0) this.links.push(null);
          else {
            this.links.push({ type: "link", href: token.attrGet("href") ?? "", content: [] });
            this.targets.push([]);
          }
          break;
        case "link_close": {
          const link = this.links.pop();
          if (link) {
            link.content = this.targets.pop()!.filter(isText);
            this.targets.at(-1)!.push(link);
          }
          break;
        }
        case "image": {
          // An image inside text: a link to it, so its address is kept.
          const alt = plainOf(token.children ?? []);
          if (this.links.length > 0) this.push(alt, this.current());
          else this.targets.at(-1)!.push({ type: "link", href: token.attrGet("src") ?? "", content: alt ? [{ type: "text", text: alt, styles: { ...this.current() } }] : [] });
          break;
        }
        case "html_inline":
          this.styles = null;
          if (!inlineHtml(token.content, this.htmlStyles)) this.push(token.content, this.current());
          else if (isBreakTag(token.content)) this.push("\n", this.current());
          break;
        default:
          break;
      }
    }
    return this.out;
  }
}

const isText = (item: Inline): item is StyledText => item.type === "text";

const inlineTokens = (node: FlowNode): Token[] => node.children[0]?.token.children ?? [];

/** An HTML block's source, without its last line ending. */
const htmlValue = (node: FlowNode) => node.token.content.replace(/\n$/, "");

/** A fence's language: its info string's first word and the rest as written, escapes and references decoded ("text" when none). */
function fenceLanguage(info: string): string {
  const match = /^[ \t]*([^ \t]+)(?:[ \t]+([^]*))?$/.exec(info);
  if (!match) return "text";
  const lang = unescapeAll(match[1]!);
  const meta = match[2] ? unescapeAll(match[2]) : "";
  return meta ? `${lang} ${meta}` : lang;
}

/**
 * A task item's text after its check, as GitHub's parser leaves it: the one
 * space after the check goes, or the line ending (with the spaces before it)
 * when the text starts on the next line; two spaces there are a line break.
 */
function afterCheck(source: string): string {
  const rest = source.slice(3);
  const line = /^([ \t]*)\n/.exec(rest);
  if (!line) return rest.slice(1);
  return / {2}$/.test(line[1]!) ? rest : rest.slice(line[0].length);
}

/** An image's text (its alt), as a plain string. */
function plainOf(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (token.type === "image") text += plainOf(token.children ?? []);
    else if (token.type === "softbreak") text += "\n";
    else if (token.type === "text" || token.type === "text_special" || token.type === "code_inline" || token.type === "html_inline") text += token.content;
  }
  return text;
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
