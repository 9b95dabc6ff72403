/**
 * A note's body between the editor's blocks and Markdown, through a Markdown
 * syntax tree (mdast: CommonMark with GitHub's tables, task items and
 * strikethrough; a bare URL stays text, as the editor stores it), every block type,
 * prop and inline style of the editor's schema mapped explicitly. No DOM, and
 * no step that can turn a whole note into less than it was:
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
import type * as M from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmStrikethroughFromMarkdown, gfmStrikethroughToMarkdown } from "mdast-util-gfm-strikethrough";
import { gfmTableFromMarkdown, gfmTableToMarkdown } from "mdast-util-gfm-table";
import { gfmTaskListItemFromMarkdown, gfmTaskListItemToMarkdown } from "mdast-util-gfm-task-list-item";
import { toMarkdown, type Options as ToMarkdownOptions } from "mdast-util-to-markdown";
import { gfmStrikethrough } from "micromark-extension-gfm-strikethrough";
import { gfmTable } from "micromark-extension-gfm-table";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import { partialBlockProblem, storedBlockProblem } from "./block-shape";
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
const CHILDREN_OPEN = "<!-- notes:children -->";
const CHILDREN_CLOSE = "<!-- notes:/children -->";

const configs = noteSchema.blockSpecs as unknown as Record<string, { config: { propSchema: Record<string, { default?: unknown }>; content: string } }>;

/** A block type's props at their defaults, as the editor stores them. */
function defaultProps(type: string): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(configs[type]!.config.propSchema)) {
    if (spec.default !== undefined) props[name] = spec.default;
  }
  return props;
}

const CELL_DEFAULTS = { backgroundColor: "default", textColor: "default", textAlignment: "left" } as const;

// ───────────────────────────── blocks → Markdown ─────────────────────────────

const toMarkdownOptions: ToMarkdownOptions = {
  extensions: [gfmStrikethroughToMarkdown(), gfmTableToMarkdown(), gfmTaskListItemToMarkdown()],
  bullet: "*",
  bulletOther: "-",
  bulletOrdered: ".",
  emphasis: "*",
  strong: "*",
  fence: "`",
  fences: true,
  rule: "-",
  listItemIndent: "one",
  incrementListMarker: true,
  tightDefinitions: true,
};

/** The whole body as Markdown (no trailing newline); never throws on any JSON. */
export function blocksToMarkdown(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return stringify(blocksToFlow(blocks));
}

/**
 * Each top-level block's Markdown on its own, to line blocks written back as
 * Markdown up with the blocks they came from.
 */
export function blockMarkdownList(blocks: readonly unknown[]): string[] {
  return blocks.map((block) => stringify(blocksToFlow([block])));
}

function stringify(children: M.RootContent[]): string {
  if (children.length === 0) return "";
  return toMarkdown({ type: "root", children }, toMarkdownOptions).replace(/\n+$/, "");
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
  if (completed.has(block as object) || storedBlockProblem(block, "block") === null) b = block as Block;
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

function blocksToFlow(blocks: readonly unknown[]): M.RootContent[] {
  const flow: M.RootContent[] = [];
  let list: M.List | null = null;
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

function jsonComment(block: unknown): M.Html {
  // `--` appears in JSON only inside strings, where `\u002d` reads back the same; so
  // the comment cannot end early. JSON has no raw line breaks: one line.
  const json = JSON.stringify(block ?? null).replace(/--/g, "-\\u002d");
  return { type: "html", value: `<!-- ${BLOCK_COMMENT} ${json} -->` };
}

function listItem(block: Block): M.ListItem {
  const children: M.BlockContent[] = [];
  const inline = block.content as Inline[];
  // An empty item is `<br>`: Markdown has no empty task item, and the first nested block must not become the item's text.
  children.push({ type: "paragraph", children: inline.length > 0 ? phrasing(inline) : [{ type: "html", value: "<br>" }] });
  children.push(...(blocksToFlow(block.children) as M.BlockContent[]));
  // A blank line ends the item's text before nested blocks that could otherwise run into it.
  const spread = block.children.length > 0 && (inline.length === 0 || !interruptsText(block.children[0]));
  return { type: "listItem", spread, checked: block.type === "checkListItem" ? Boolean(block.props.checked) : null, children };
}

/** Whether a nested block's Markdown starts a new block right after a line of text (a list can; a paragraph cannot). */
function interruptsText(first: unknown): boolean {
  const block = expressible(first);
  if (!block) return false;
  if (block.type === "numberedListItem") return block.props.start === undefined || block.props.start === 1;
  return listKind(block) === "bullet" || block.type === "heading" || block.type === "codeBlock" || block.type === "quote" || block.type === "divider";
}

/** A block that is not a list item, then its nested blocks between two markers. */
function blockToFlow(block: Block): M.RootContent[] {
  const own = ownFlow(block);
  if (block.children.length === 0) return [own];
  return [own, { type: "html", value: CHILDREN_OPEN }, ...blocksToFlow(block.children), { type: "html", value: CHILDREN_CLOSE }];
}

function ownFlow(block: Block): M.RootContent {
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

function imageNode(block: Block): M.Image {
  const name = String(block.props.name ?? "");
  const caption = String(block.props.caption ?? "");
  return { type: "image", url: String(block.props.url ?? ""), alt: name, title: caption || null };
}

function tableNode(table: TableContent): M.Table {
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

function phrasing(content: readonly Inline[]): M.PhrasingContent[] {
  const nodes: M.PhrasingContent[] = [];
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

/** Runs of text grouped by their styles, outermost style first, so shared styles wrap once. */
function styledRuns(runs: readonly StyledText[], depth: number): M.PhrasingContent[] {
  if (depth === WRAPPING_STYLES.length) return runs.flatMap((text) => leaves(text));
  const style = WRAPPING_STYLES[depth]!;
  const nodes: M.PhrasingContent[] = [];
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

function wrap(style: (typeof WRAPPING_STYLES)[number], value: string | boolean, inner: M.PhrasingContent[]): M.PhrasingContent[] {
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
function leaves(text: StyledText): M.PhrasingContent[] {
  const nodes: M.PhrasingContent[] = [];
  text.text.split("\n").forEach((line, index) => {
    if (index > 0) nodes.push({ type: "html", value: "<br>" });
    if (line !== "") nodes.push(text.styles.code === true ? { type: "inlineCode", value: line } : { type: "text", value: line });
  });
  return nodes;
}

// ───────────────────────────── Markdown → blocks ─────────────────────────────

/** Markdown → the editor's blocks, each complete as the editor stores it. */
export function markdownToBlocks(markdown: string, options: ReadOptions = {}): Block[] {
  const tree = fromMarkdown(markdown, {
    extensions: [gfmStrikethrough(), gfmTable(), gfmTaskListItem()],
    mdastExtensions: [gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown()],
  });
  const reader = new Reader(tree, options.newId ?? (() => crypto.randomUUID()));
  return reader.flow(tree.children);
}

class Reader {
  private readonly definitions = new Map<string, M.Definition>();

  constructor(
    tree: M.Root,
    private readonly newId: () => string,
  ) {
    const visit = (node: M.Nodes) => {
      if (node.type === "definition" && !this.definitions.has(node.identifier)) this.definitions.set(node.identifier, node);
      if ("children" in node) for (const child of node.children) visit(child);
    };
    visit(tree);
  }

  private block(type: string, props: Record<string, unknown> = {}, content?: Inline[] | TableContent, children: Block[] = []): Block {
    const block: Block = { id: this.newId(), type, props: { ...defaultProps(type), ...props }, children };
    if (content !== undefined) block.content = content;
    return block;
  }

  /** Flow content (the document, a list item, a quote) → blocks. */
  flow(nodes: readonly M.RootContent[]): Block[] {
    const blocks: Block[] = [];
    let previousList: M.List | null = null;
    for (let index = 0; index < nodes.length; index += 1) {
      const node = nodes[index]!;
      if (node.type === "html" && node.value.trim() === CHILDREN_OPEN) {
        // The blocks up to the matching close are the previous block's nested blocks.
        let depth = 1;
        let end = index + 1;
        for (; end < nodes.length; end += 1) {
          const value = nodes[end]!.type === "html" ? (nodes[end] as M.Html).value.trim() : "";
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
      if (node.type === "html" && node.value.trim() === CHILDREN_CLOSE) continue;
      if (node.type === "list") {
        blocks.push(...this.list(node, previousList !== null && previousList.ordered === node.ordered));
        previousList = node;
        continue;
      }
      previousList = null;
      blocks.push(...this.node(node));
    }
    return blocks;
  }

  private node(node: M.RootContent): Block[] {
    switch (node.type) {
      case "paragraph": {
        const only = node.children.length === 1 ? node.children[0]! : null;
        if (only?.type === "image") return [this.image(only.url, only.alt ?? "", only.title ?? "")];
        if (only?.type === "imageReference") {
          const definition = this.definitions.get(only.identifier);
          if (definition) return [this.image(definition.url, only.alt ?? "", definition.title ?? "")];
        }
        return [this.block("paragraph", {}, this.inline(node.children))];
      }
      case "heading":
        return [this.block("heading", { level: node.depth }, this.inline(node.children))];
      case "blockquote":
        return this.quote(node);
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
        return this.list(node, false);
      default:
        // Phrasing that reached flow (never from the parser): its text.
        return [this.block("paragraph", {}, this.inline([node as M.PhrasingContent]))];
    }
  }

  private image(url: string, name: string, caption: string): Block {
    return this.block("image", { url, name, caption });
  }

  private quote(node: M.Blockquote): Block[] {
    const blocks: Block[] = [];
    const rest: M.RootContent[] = [];
    for (const child of node.children) {
      // Each paragraph is a quote block; anything else nests in the quote before it.
      if (child.type === "paragraph" && rest.length === 0) blocks.push(this.block("quote", {}, this.inline(child.children)));
      else if (child.type === "paragraph" && blocks.length > 0) {
        blocks.at(-1)!.children.push(...this.flow(rest.splice(0)));
        blocks.push(this.block("quote", {}, this.inline(child.children)));
      } else rest.push(child);
    }
    if (blocks.length === 0) blocks.push(this.block("quote", {}, []));
    blocks.at(-1)!.children.push(...this.flow(rest));
    return blocks;
  }

  private list(node: M.List, followsList: boolean): Block[] {
    return node.children.map((item, index) => {
      let type = "bulletListItem";
      const props: Record<string, unknown> = {};
      if (node.ordered) {
        type = "numberedListItem";
        const start = node.start ?? 1;
        if (index === 0 && (start !== 1 || followsList)) props.start = start;
      } else if (typeof item.checked === "boolean") {
        type = "checkListItem";
        props.checked = item.checked;
      }
      const [first, ...rest] = item.children;
      let content: Inline[] = [];
      let nested: M.RootContent[] = item.children;
      if (first?.type === "paragraph") {
        content = this.inline(first.children);
        nested = rest;
      } else if (first?.type === "html" && isBreakTag(first.value)) nested = rest;
      return this.block(type, props, content, this.flow(nested));
    });
  }

  private table(node: M.Table): Block {
    const width = Math.max(1, ...node.children.map((row) => row.children.length));
    const rows = node.children.map((row) => {
      const cells: TableCell[] = row.children.map((cell) => ({ type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1 }, content: this.inline(cell.children) }));
      while (cells.length < width) cells.push({ type: "tableCell", props: { ...CELL_DEFAULTS, colspan: 1, rowspan: 1 }, content: [] });
      return { cells };
    });
    return this.block("table", {}, { type: "tableContent", columnWidths: Array.from({ length: width }, () => null), rows });
  }

  private html(value: string): Block[] {
    const trimmed = value.trim();
    if (isBreakTag(trimmed)) return [this.block("paragraph", {}, [])];
    const comment = new RegExp(`^<!-- ${BLOCK_COMMENT} ([^\\n]*) -->$`).exec(trimmed);
    if (comment) {
      try {
        return [JSON.parse(comment[1]!) as Block];
      } catch {
        throw new MarkdownBlockError(`A ${BLOCK_COMMENT} comment does not hold a block's JSON: ${trimmed.slice(0, 80)}`);
      }
    }
    // HTML the editor has no block for: its text, as written.
    return [this.block("paragraph", {}, value ? [{ type: "text", text: value, styles: {} }] : [])];
  }

  /** Phrasing → the editor's inline content: styles flattened onto text, adjacent runs of equal styles merged. */
  private inline(nodes: readonly M.PhrasingContent[]): Inline[] {
    // `<br>` alone is how an empty block is written.
    if (nodes.length === 1 && nodes[0]!.type === "html" && isBreakTag(nodes[0]!.value)) return [];
    const out: Inline[] = [];
    const htmlStyles: [string, string | boolean][] = [];
    const push = (target: Inline[], text: string, styles: Styles) => {
      if (text === "") return;
      const last = target.at(-1);
      if (last?.type === "text" && sameStyles(last.styles, styles)) last.text += text;
      else target.push({ type: "text", text, styles: { ...styles } });
    };
    const walk = (list: readonly M.PhrasingContent[], styles: Styles, target: Inline[], inLink: boolean) => {
      for (const node of list) {
        const current = (): Styles => {
          const all = { ...styles };
          for (const [style, value] of htmlStyles) all[style] = value;
          return all;
        };
        switch (node.type) {
          case "text":
            push(target, node.value, current());
            break;
          case "break":
            push(target, "\n", current());
            break;
          case "inlineCode":
            push(target, node.value, { ...current(), code: true });
            break;
          case "strong":
            walk(node.children, { ...styles, bold: true }, target, inLink);
            break;
          case "emphasis":
            walk(node.children, { ...styles, italic: true }, target, inLink);
            break;
          case "delete":
            walk(node.children, { ...styles, strike: true }, target, inLink);
            break;
          case "link":
          case "linkReference": {
            const href = node.type === "link" ? node.url : this.definitions.get(node.identifier)?.url;
            if (inLink || href === undefined) {
              walk(node.children, styles, target, inLink);
              break;
            }
            const link: Link = { type: "link", href, content: [] };
            const inner: Inline[] = [];
            walk(node.children, styles, inner, true);
            link.content = inner.filter((item): item is StyledText => item.type === "text");
            target.push(link);
            break;
          }
          case "image":
          case "imageReference": {
            // An image inside text: a link to it, so its address is kept.
            const href = node.type === "image" ? node.url : this.definitions.get(node.identifier)?.url;
            const alt = node.alt ?? "";
            if (href === undefined || inLink) push(target, alt, current());
            else target.push({ type: "link", href, content: alt ? [{ type: "text", text: alt, styles: current() }] : [] });
            break;
          }
          case "html":
            if (!this.inlineHtml(node.value, htmlStyles)) push(target, node.value, current());
            else if (isBreakTag(node.value)) push(target, "\n", current());
            break;
          default:
            break;
        }
      }
    };
    walk(nodes, {}, out, false);
    return out;
  }

  /** Opens or closes an underline or colour span; true when the tag was one of ours. */
  private inlineHtml(value: string, stack: [string, string | boolean][]): boolean {
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
}

const isBreakTag = (value: string) => /^<br\s*\/?>$/i.test(value.trim());

function sameStyles(a: Styles, b: Styles): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
