/**
 * Markdown → a Markdown syntax tree (mdast), read by markdown-it: CommonMark,
 * with markdown-it's own GitHub tables and strikethrough switched on and GFM's
 * task list items recognised here, from the GFM specification (section 5.3).
 * The tree is what lib/body/markdown-blocks.ts turns into blocks; markdown-it
 * resolves link references itself, so the tree holds no definitions.
 *
 * Pure and synchronous; relative imports only (the conversion worker loads
 * this file outside Next's bundle).
 */
import MarkdownIt from "markdown-it";
import type StateInline from "markdown-it/lib/rules_inline/state_inline.mjs";
import type Token from "markdown-it/lib/token.mjs";
import type * as M from "mdast";

/** Raised for Markdown nested deeper than `maxNesting` levels of blocks. */
export class MarkdownNestingError extends Error {}

const md = new MarkdownIt("commonmark", { html: true }).enable(["table", "strikethrough"]);
// Addresses stay as written: no percent-encoding, and every scheme is kept (as text is).
md.normalizeLink = (url) => url;
md.normalizeLinkText = (url) => url;
md.validateLink = () => true;
const { unescapeAll } = md.utils;

/** Each inline source's backtick runs, by length: their start positions, ascending. */
const backtickRuns = new WeakMap<StateInline, { src: string; runs: Map<number, number[]> }>();

function runsOf(state: StateInline): Map<number, number[]> {
  const cached = backtickRuns.get(state);
  if (cached && cached.src === state.src) return cached.runs;
  const runs = new Map<number, number[]>();
  const { src } = state;
  for (let pos = src.indexOf("`"); pos !== -1; ) {
    let end = pos;
    while (src.charCodeAt(end) === 0x60) end += 1;
    const list = runs.get(end - pos);
    if (list) list.push(pos);
    else runs.set(end - pos, [pos]);
    pos = src.indexOf("`", end);
  }
  backtickRuns.set(state, { src, runs });
  return runs;
}

/**
 * Code spans as CommonMark 0.31.2 section 6.1 says: a run of backticks up to
 * the next run of the same length; line endings become spaces, and one space
 * is stripped from each end when both ends are spaces and not every character
 * is (markdown-it's own rule strips it from a span of spaces too).
 */
function codeSpan(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x60) return false;
  let end = start;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x60) end += 1;
  const length = end - start;
  const candidates = runsOf(state).get(length) ?? [];
  // The first run of the same length after this one (binary search), within this inline's end.
  let low = 0;
  let high = candidates.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (candidates[middle]! < end) low = middle + 1;
    else high = middle;
  }
  const closer = candidates[low];
  if (closer === undefined || closer + length > state.posMax) {
    if (!silent) state.pending += state.src.slice(start, end);
    state.pos = end;
    return true;
  }
  if (!silent) {
    let content = state.src.slice(end, closer).replace(/\r\n|\r|\n/g, " ");
    if (content.length >= 2 && content.startsWith(" ") && content.endsWith(" ") && /[^ ]/.test(content)) content = content.slice(1, -1);
    const token = state.push("code_inline", "code", 0);
    token.markup = "`".repeat(length);
    token.content = content;
  }
  state.pos = closer + length;
  return true;
}
md.inline.ruler.at("backticks", codeSpan);

/** The source of each paragraph's text, for the task list marker (GFM 5.3), which is read from the source. */
const paragraphSource = new WeakMap<M.Paragraph, string>();

type Parent = { children: M.Nodes[] };

/**
 * Reads `markdown` into an mdast root. `maxNesting`: levels of blocks read
 * (markdown-it counts a list and its item as two); deeper nesting is an error,
 * never content dropped.
 */
export function readMarkdownTree(markdown: string, maxNesting: number): M.Root {
  // A preset option markdown-it reads on every parse (its typings leave it out).
  (md.options as { maxNesting?: number }).maxNesting = maxNesting;
  const tokens = md.parse(markdown, {});
  const root: M.Root = { type: "root", children: [] };
  const stack: Parent[] = [root];
  const top = () => stack[stack.length - 1]!;
  let table: M.Table | null = null;
  let sourceOf = false;
  for (const token of tokens) {
    // markdown-it stops reading blocks (dropping the rest) one level past maxNesting.
    if (token.level >= maxNesting - 1) throw new MarkdownNestingError(`Markdown nests deeper than ${maxNesting} levels`);
    switch (token.type) {
      case "paragraph_open":
        stack.push(add(top(), { type: "paragraph", children: [] }));
        sourceOf = true;
        break;
      case "heading_open":
        stack.push(add(top(), { type: "heading", depth: Number(token.tag.slice(1)) as M.Heading["depth"], children: [] }));
        break;
      case "blockquote_open":
        stack.push(add(top(), { type: "blockquote", children: [] }));
        break;
      case "bullet_list_open":
      case "ordered_list_open": {
        const list: M.List = { type: "list", ordered: token.type === "ordered_list_open", spread: false, children: [] };
        if (list.ordered) list.start = Number(token.attrGet("start") ?? 1);
        stack.push(add(top(), list));
        break;
      }
      case "list_item_open":
        stack.push(add(top(), { type: "listItem", spread: false, checked: null, children: [] }));
        break;
      case "table_open":
        table = add(top(), { type: "table", align: [], children: [] });
        stack.push(table);
        break;
      case "tr_open":
        stack.push(add(top(), { type: "tableRow", children: [] }));
        break;
      case "th_open":
      case "td_open": {
        if (token.type === "th_open" && table) table.align!.push(cellAlign(token));
        stack.push(add(top(), { type: "tableCell", children: [] }));
        break;
      }
      case "paragraph_close":
      case "heading_close":
      case "blockquote_close":
      case "bullet_list_close":
      case "ordered_list_close":
      case "tr_close":
      case "th_close":
      case "td_close":
        stack.pop();
        break;
      case "list_item_close": {
        const item = stack.pop() as M.ListItem;
        taskItem(item);
        break;
      }
      case "table_close":
        stack.pop();
        table = null;
        break;
      case "inline":
        if (sourceOf) paragraphSource.set(top() as M.Paragraph, token.content);
        sourceOf = false;
        inline(top(), token.children ?? []);
        break;
      case "fence": {
        const info = unescapeAll(token.info).trim();
        const space = info.search(/\s/);
        const lang = space === -1 ? info : info.slice(0, space);
        const meta = space === -1 ? "" : info.slice(space).trim();
        add(top(), { type: "code", lang: lang || null, meta: meta || null, value: withoutFinalLineEnding(token.content) });
        break;
      }
      case "code_block":
        add(top(), { type: "code", lang: null, meta: null, value: withoutFinalLineEnding(token.content) });
        break;
      case "hr":
        add(top(), { type: "thematicBreak" });
        break;
      case "html_block":
        add(top(), { type: "html", value: withoutFinalLineEnding(token.content) });
        break;
      default:
        // thead, tbody: the rows they hold are the table's.
        break;
    }
  }
  return root;
}

function add<T extends M.Nodes>(parent: Parent, node: T): T {
  parent.children.push(node);
  return node;
}

const withoutFinalLineEnding = (text: string) => text.replace(/\r?\n$/, "");

function cellAlign(token: Token): M.AlignType {
  const style = token.attrGet("style") ?? "";
  const align = /text-align:(left|center|right)/.exec(style)?.[1];
  return (align as M.AlignType | undefined) ?? null;
}

/**
 * A list item whose first paragraph's source starts with `[ ]`, `[x]` or
 * `[X]`, white space and then more on that line is a task item (GFM 5.3);
 * the marker is not text.
 */
function taskItem(item: M.ListItem): void {
  const first = item.children[0];
  if (first?.type !== "paragraph") return;
  const marker = /^\[([ xX])\]([ \t]+)(?=[^\s])/.exec(paragraphSource.get(first) ?? "");
  const head = first.children[0];
  if (!marker || head?.type !== "text" || !head.value.startsWith(marker[0])) return;
  item.checked = marker[1] !== " ";
  if (head.value.length === marker[0].length) first.children.shift();
  else head.value = head.value.slice(marker[0].length);
}

/** Inline tokens → phrasing, into `parent`. */
function inline(parent: Parent, tokens: readonly Token[]): void {
  const stack: Parent[] = [parent];
  const top = () => stack[stack.length - 1]!;
  for (const token of tokens) {
    switch (token.type) {
      case "text":
        text(top(), token.content);
        break;
      case "softbreak":
        // A line ending inside a paragraph is part of its text, as mdast holds it.
        text(top(), "\n");
        break;
      case "hardbreak":
        add(top(), { type: "break" });
        break;
      case "code_inline":
        add(top(), { type: "inlineCode", value: token.content });
        break;
      case "em_open":
        stack.push(add(top(), { type: "emphasis", children: [] }));
        break;
      case "strong_open":
        stack.push(add(top(), { type: "strong", children: [] }));
        break;
      case "s_open":
        stack.push(add(top(), { type: "delete", children: [] }));
        break;
      case "link_open":
        stack.push(add(top(), { type: "link", url: token.attrGet("href") ?? "", title: token.attrGet("title"), children: [] }));
        break;
      case "em_close":
      case "strong_close":
      case "s_close":
      case "link_close":
        stack.pop();
        break;
      case "image":
        add(top(), { type: "image", url: token.attrGet("src") ?? "", alt: plainText(token.children ?? []), title: token.attrGet("title") });
        break;
      case "html_inline":
        add(top(), { type: "html", value: token.content });
        break;
      default:
        if (token.content) text(top(), token.content);
        break;
    }
  }
}

/** Text, joined to the text before it, as mdast holds a run of text. */
function text(parent: Parent, value: string): void {
  const last = parent.children.at(-1);
  if (last?.type === "text") last.value += value;
  else parent.children.push({ type: "text", value });
}

/** An image's description as plain text (CommonMark 6.4: what a renderer puts in alt). */
function plainText(tokens: readonly Token[]): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "image") out += plainText(token.children ?? []);
    else if (token.type === "softbreak" || token.type === "hardbreak") out += "\n";
    else out += token.content;
  }
  return out;
}
