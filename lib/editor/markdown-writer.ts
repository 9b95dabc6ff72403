/**
 * Markdown text from a small Markdown syntax tree (the nodes markdown-blocks.ts
 * makes of blocks: mdast's shapes, only those), written the way
 * mdast-util-to-markdown 2.2 with its GFM table, strikethrough and task-list
 * extensions writes them with our options (`*` bullets, `*emphasis*`,
 * `**strong**`, `~~strike~~`, fenced code with backticks, `---` rules, tables
 * padded): the same characters escaped, so the Markdown of a note is
 * unchanged, but without that library's generic machinery (which cost most of
 * the time of a conversion).
 *
 * Escaping follows mdast-util-to-markdown's `unsafe` patterns and its
 * emphasis serializer (container-phrasing.js), ported; both are MIT.
 * Pure; relative imports only (loaded in the conversion worker).
 */

// ─────────────────────────────── the tree ───────────────────────────────

export type Phrasing =
  | { type: "text"; value: string }
  | { type: "inlineCode"; value: string }
  | { type: "html"; value: string }
  | { type: "strong" | "emphasis" | "delete"; children: Phrasing[] }
  | { type: "link"; url: string; title: string | null; children: Phrasing[] }
  | { type: "image"; url: string; alt: string; title: string | null };
type Paragraph = { type: "paragraph"; children: Phrasing[] };
export type ListItem = { type: "listItem"; spread: boolean; checked: boolean | null; children: Flow[] };
export type List = { type: "list"; ordered: boolean; start?: number; spread: boolean; children: ListItem[] };
export type TableNode = { type: "table"; align: null[]; children: { type: "tableRow"; children: { type: "tableCell"; children: Phrasing[] }[] }[] };
export type Flow =
  | Paragraph
  | { type: "heading"; depth: number; children: Phrasing[] }
  | { type: "blockquote"; children: Flow[] }
  | { type: "code"; lang: string | null; meta: string | null; value: string }
  | { type: "thematicBreak" }
  | { type: "html"; value: string }
  | List
  | TableNode;
type Parent = { type: string; children: unknown[]; spread?: boolean; checked?: boolean | null; ordered?: boolean; start?: number };
type AnyNode = Flow | Phrasing | ListItem;

// ─────────────────────────────── escaping ───────────────────────────────

type Unsafe = { character: string; inConstruct?: string | string[]; notInConstruct?: string[]; before?: string; after?: string; atBreak?: boolean };

const fullPhrasingSpans = ["autolink", "destinationLiteral", "destinationRaw", "reference", "titleQuote", "titleApostrophe"];
const fencedInfo = ["codeFencedLangGraveAccent", "codeFencedLangTilde", "codeFencedMetaGraveAccent", "codeFencedMetaTilde"];

/** mdast-util-to-markdown's unsafe patterns, then those of its GFM strikethrough and table extensions. */
const UNSAFE: Unsafe[] = [
  { character: "\t", after: "[\\r\\n]", inConstruct: "phrasing" },
  { character: "\t", before: "[\\r\\n]", inConstruct: "phrasing" },
  { character: "\t", inConstruct: ["codeFencedLangGraveAccent", "codeFencedLangTilde"] },
  { character: "\r", inConstruct: [...fencedInfo, "destinationLiteral", "headingAtx"] },
  { character: "\n", inConstruct: [...fencedInfo, "destinationLiteral", "headingAtx"] },
  { character: "\r", before: "[\\r\\n]", inConstruct: "phrasing" },
  { character: "\r", after: "\\r", inConstruct: "phrasing" },
  { character: "\n", before: "\\n", inConstruct: "phrasing" },
  { character: "\n", after: "[\\r\\n]", inConstruct: "phrasing" },
  { character: " ", after: "[\\r\\n]", inConstruct: "phrasing" },
  { character: " ", before: "[\\r\\n]", inConstruct: "phrasing" },
  { character: " ", inConstruct: ["codeFencedLangGraveAccent", "codeFencedLangTilde"] },
  { character: "!", after: "\\[", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { character: '"', inConstruct: "titleQuote" },
  { atBreak: true, character: "#" },
  { character: "#", inConstruct: "headingAtx", after: "(?:[\r\n]|$)" },
  { character: "&", after: "[#A-Za-z]", inConstruct: [...fencedInfo, "destinationLiteral", "destinationRaw", "phrasing", "titleApostrophe", "titleQuote"] },
  { character: "'", inConstruct: "titleApostrophe" },
  { character: "(", inConstruct: "destinationRaw" },
  { before: "\\]", character: "(", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { atBreak: true, before: "\\d+", character: ")" },
  { character: ")", inConstruct: "destinationRaw" },
  { atBreak: true, character: "*", after: "(?:[ \t\r\n*])" },
  { character: "*", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { atBreak: true, character: "+", after: "(?:[ \t\r\n])" },
  { atBreak: true, character: "-", after: "(?:[ \t\r\n-])" },
  { atBreak: true, before: "\\d+", character: ".", after: "(?:[ \t\r\n]|$)" },
  { atBreak: true, character: "<", after: "[!/?A-Za-z]" },
  { character: "<", after: "[!/?A-Za-z]", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { character: "<", inConstruct: "destinationLiteral" },
  { atBreak: true, character: "=" },
  { atBreak: true, character: ">" },
  { character: ">", inConstruct: "destinationLiteral" },
  { atBreak: true, character: "[" },
  { character: "[", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { character: "[", inConstruct: ["label", "reference"] },
  { character: "\\", after: "[\\r\\n]", inConstruct: "phrasing" },
  { character: "]", inConstruct: ["label", "reference"] },
  { atBreak: true, character: "_" },
  { character: "_", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { atBreak: true, character: "`" },
  { character: "`", inConstruct: ["codeFencedLangGraveAccent", "codeFencedMetaGraveAccent"] },
  { character: "`", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  { atBreak: true, character: "~" },
  { character: "<", inConstruct: "autolink" },
  { character: ">", inConstruct: "autolink" },
  { character: "\u007F", inConstruct: "autolink" },
  ...Array.from({ length: 33 }, (_, code): Unsafe => ({ character: String.fromCharCode(code), inConstruct: "autolink" })),
  // GFM strikethrough.
  { character: "~", inConstruct: "phrasing", notInConstruct: fullPhrasingSpans },
  // GFM table.
  { character: "\r", inConstruct: "tableCell" },
  { character: "\n", inConstruct: "tableCell" },
  { atBreak: true, character: "|", after: "[\t :-]" },
  { character: "|", inConstruct: "tableCell" },
  { atBreak: true, character: ":", after: "-" },
  { atBreak: true, character: "-", after: "[:|-]" },
];

/** A pattern compiled; `newline`: it matches only where the text holds a line ending. */
type Compiled = { pattern: Unsafe; expression: RegExp; before: boolean; after: boolean; newline: boolean };

const LINE_ENDING_CONTEXT = ["[\\r\\n]", "\\r", "\\n"];

const compiled: Compiled[] = UNSAFE.map((pattern) => {
  const before = (pattern.atBreak ? "[\\r\\n][\\t ]*" : "") + (pattern.before ? `(?:${pattern.before})` : "");
  const expression = new RegExp(
    (before ? `(${before})` : "") + (/[$()*+.?[\\\]^{|}]/.test(pattern.character) ? "\\" : "") + pattern.character + (pattern.after ? `(?:${pattern.after})` : ""),
    "g",
  );
  const newline = Boolean(pattern.atBreak) || LINE_ENDING_CONTEXT.includes(pattern.before ?? "") || LINE_ENDING_CONTEXT.includes(pattern.after ?? "");
  return { pattern, expression, before: Boolean(pattern.before || pattern.atBreak), after: Boolean(pattern.after), newline };
});

const inScope = (stack: readonly string[], list: string | string[] | undefined, none: boolean) => {
  if (list === undefined) return none;
  const names = typeof list === "string" ? [list] : list;
  if (names.length === 0) return none;
  return names.some((name) => stack.includes(name));
};

/**
 * The patterns that apply with some constructs open (a node per list of open
 * constructs, reached from the one before by a name): all of them, those
 * that can match in text without line endings, and a test for text in which
 * one of those might match (their characters, and `\` that may need escaping).
 */
class Scope {
  private readonly next = new Map<string, Scope>();
  private patterns: { all: Compiled[]; inLine: Compiled[]; trigger: RegExp } | undefined;

  constructor(readonly stack: readonly string[]) {}

  child(name: string): Scope {
    let scope = this.next.get(name);
    if (!scope) {
      scope = new Scope([...this.stack, name]);
      this.next.set(name, scope);
    }
    return scope;
  }

  get compiled(): { all: Compiled[]; inLine: Compiled[]; trigger: RegExp } {
    if (!this.patterns) {
      const all = compiled.filter(({ pattern }) => inScope(this.stack, pattern.inConstruct, true) && !inScope(this.stack, pattern.notInConstruct, false));
      const inLine = all.filter((pattern) => !pattern.newline);
      const characters = [...new Set([...inLine.map(({ pattern }) => pattern.character), "\\", "\r", "\n"])];
      const trigger = new RegExp(`[${characters.map((char) => (/[\\\]^-]/.test(char) ? `\\${char}` : char)).join("")}]`);
      this.patterns = { all, inLine, trigger };
    }
    return this.patterns;
  }
}

const ROOT_SCOPE = new Scope([]);

const hasLineEnding = (value: string) => value.includes("\n") || value.includes("\r");

const encodeCharacterReference = (code: number) => `&#x${code.toString(16).toUpperCase()};`;

const WHITESPACE = /\s/;
const PUNCTUATION = /\p{P}|\p{S}/u;

/** micromark's classes: 1 whitespace, 2 punctuation, undefined otherwise or for no character (by UTF-16 unit, as micromark reads). */
function classifyCharacter(code: number): 1 | 2 | undefined {
  if (Number.isNaN(code)) return undefined;
  const char = String.fromCharCode(code);
  if (WHITESPACE.test(char)) return 1;
  if (PUNCTUATION.test(char)) return 2;
  return undefined;
}

function escapeBackslashes(value: string, after: string): string {
  const expression = /\\(?=[!-/:-@[-`{-~])/g;
  const positions: number[] = [];
  const results: string[] = [];
  const whole = value + after;
  let start = 0;
  let match: RegExpExecArray | null;
  while ((match = expression.exec(whole))) positions.push(match.index);
  for (const position of positions) {
    if (start !== position) results.push(value.slice(start, position));
    results.push("\\");
    start = position;
  }
  results.push(value.slice(start));
  return results.join("");
}

type SafeConfig = { before?: string; after?: string; encode?: string[] };

// ─────────────────────────────── the writer ───────────────────────────────

type Info = { before: string; after: string };
type AttentionItem = { children: (string | AttentionItem)[]; sequences: string[] };
type Token = { value: string; attention: AttentionItem | undefined };

const firstCharacter = (value: string) => {
  const code = value.codePointAt(0);
  return code === undefined ? "" : String.fromCodePoint(code);
};
const lastCharacter = (value: string) => {
  const code = value.codePointAt(value.length - 2);
  return code !== undefined && code > 0xffff ? value.slice(-2) : value.slice(-1);
};

const EOL = /\r?\n|\r/g;

function indentLines(value: string, map: (line: string, index: number, blank: boolean) => string): string {
  const result: string[] = [];
  let start = 0;
  let line = 0;
  let match: RegExpExecArray | null;
  EOL.lastIndex = 0;
  while ((match = EOL.exec(value))) {
    const text = value.slice(start, match.index);
    result.push(map(text, line, !text), match[0]);
    start = match.index + match[0].length;
    line += 1;
  }
  const text = value.slice(start);
  result.push(map(text, line, !text));
  return result.join("");
}

function longestStreak(value: string, substring: string): number {
  let index = value.indexOf(substring);
  let expected = index;
  let count = 0;
  let max = 0;
  while (index !== -1) {
    if (index === expected) {
      count += 1;
      if (count > max) max = count;
    } else count = 1;
    expected = index + substring.length;
    index = value.indexOf(substring, expected);
  }
  return max;
}

function toPlainString(node: AnyNode): string {
  if ("value" in node) return node.value;
  if ("alt" in node) return node.alt;
  if ("children" in node) return (node.children as AnyNode[]).map(toPlainString).join("");
  return "";
}

function hasLineBreak(node: AnyNode): boolean {
  if ("value" in node && /\r?\n|\r/.test(node.value)) return true;
  return "children" in node && (node.children as AnyNode[]).some(hasLineBreak);
}

const HTML_BLOCK_NAMES = new Set(
  "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul".split(
    " ",
  ),
);
const HTML_RAW_NAMES = new Set(["pre", "script", "style", "textarea"]);

/** The kind of HTML flow a value starts (CommonMark's 1–7), as mdast-util-to-markdown's html-kind.js. */
function htmlKind(value: string): number | undefined {
  if (value.charCodeAt(0) !== 60) return undefined;
  const next = value.charCodeAt(1);
  const alpha = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  if (next === 33) {
    const code = value.charCodeAt(2);
    if (code === 45) return 2;
    if (code === 91) return 5;
    if (alpha(code)) return 4;
    return undefined;
  }
  if (next === 63) return 3;
  const closing = next === 47;
  const start = closing ? 2 : 1;
  let end = start;
  let code = value.charCodeAt(end);
  if (!alpha(code)) return undefined;
  while (code === 45 || alpha(code) || (code >= 48 && code <= 57)) code = value.charCodeAt(++end);
  const name = value.slice(start, end).toLowerCase();
  if (!closing && code !== 47 && HTML_RAW_NAMES.has(name)) return 1;
  return HTML_BLOCK_NAMES.has(name) ? 6 : 7;
}

class Writer {
  /** The constructs open, innermost last, and their escaping scope. */
  private stack: string[] = [];
  private scope = ROOT_SCOPE;
  private readonly scopes: Scope[] = [];
  private bulletLastUsed: string | undefined;
  private bulletCurrent: string | undefined;

  private enter(name: string): void {
    this.stack.push(name);
    this.scopes.push(this.scope);
    this.scope = this.scope.child(name);
  }

  private exit(): void {
    this.stack.pop();
    this.scope = this.scopes.pop()!;
  }

  safe(input: string, config: SafeConfig): string {
    const scope = this.scope.compiled;
    // Most text holds nothing to escape: every match is at one of the patterns' characters.
    const lineEnding = hasLineEnding(input) || hasLineEnding(config.before ?? "") || hasLineEnding(config.after ?? "");
    if (!lineEnding && !scope.trigger.test(input)) return input;
    const value = (config.before ?? "") + input + (config.after ?? "");
    const positions: number[] = [];
    const infos = new Map<number, { before: boolean; after: boolean }>();
    const percentEncode = this.stack.includes("autolink");
    const offset = config.before ? config.before.length : 0;
    const end = value.length - (config.after ? config.after.length : 0);
    for (const { pattern, expression, before, after } of lineEnding ? scope.all : scope.inLine) {
      if (!input.includes(pattern.character)) continue;
      expression.lastIndex = 0;
      let match: RegExpExecArray | null;
      while ((match = expression.exec(value))) {
        const position = match.index + (before ? match[1]!.length : 0);
        const info = infos.get(position);
        if (info) {
          if (info.before && !before) info.before = false;
          if (info.after && !after) info.after = false;
        } else {
          positions.push(position);
          infos.set(position, { before, after });
        }
      }
    }
    positions.sort((a, b) => a - b);
    const result: string[] = [];
    let start = offset;
    for (let index = 0; index < positions.length; index += 1) {
      const position = positions[index]!;
      if (position < start || position >= end) continue;
      // A run of `_` inside a word cannot open or close emphasis: no need to escape it.
      if (
        value.charAt(position) === "_" &&
        position > 0 &&
        classifyCharacter(value.charCodeAt(position - 1)) === undefined &&
        !infos.has(position - 1) &&
        !(position - 1 === offset && /[*_]/.test(value.charAt(offset - 1)))
      ) {
        let sequenceEnd = position + 1;
        while (sequenceEnd < end && value.charAt(sequenceEnd) === "_") sequenceEnd += 1;
        const skip = sequenceEnd - position - 1;
        if (
          positions[index + skip] === sequenceEnd - 1 &&
          sequenceEnd < value.length &&
          classifyCharacter(value.charCodeAt(sequenceEnd)) === undefined &&
          !infos.has(sequenceEnd) &&
          !(sequenceEnd === end - 1 && /[*_]/.test(value.charAt(end)))
        ) {
          index += skip;
          continue;
        }
      }
      const info = infos.get(position)!;
      const nextInfo = infos.get(position + 1);
      const previousInfo = infos.get(position - 1);
      if (
        (position + 1 < end && positions[index + 1] === position + 1 && info.after && !nextInfo!.before && !nextInfo!.after) ||
        (position - 1 >= offset && positions[index - 1] === position - 1 && info.before && !previousInfo!.before && !previousInfo!.after)
      ) {
        continue;
      }
      if (start !== position) {
        const slice = value.slice(start, position);
        result.push(percentEncode ? slice : escapeBackslashes(slice, "\\"));
      }
      start = position + 1;
      if (percentEncode) result.push(`%${value.charCodeAt(position).toString(16).toUpperCase().padStart(2, "0")}`);
      else if (/[!-/:-@[-`{-~]/.test(value.charAt(position)) && !config.encode?.includes(value.charAt(position))) result.push(`\\${value.charAt(position)}`);
      else result.push(encodeCharacterReference(value.charCodeAt(position)));
    }
    const rest = value.slice(start, end);
    result.push(percentEncode ? rest : escapeBackslashes(rest, config.after ?? ""));
    return result.join("");
  }

  // ── flow ──

  root(children: Flow[]): string {
    const result = this.containerFlow({ type: "root", children });
    return result;
  }

  private containerFlow(parent: Parent): string {
    const children = parent.children as (Flow | ListItem)[];
    const results: string[] = [];
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index]!;
      results.push(this.flow(child, parent, { before: "\n", after: "\n" }));
      if (child.type !== "list") this.bulletLastUsed = undefined;
      if (index < children.length - 1) results.push(this.between(child, children[index + 1]!, parent));
    }
    return results.join("");
  }

  private between(left: Flow | ListItem, right: Flow | ListItem, parent: Parent): string {
    // The GFM table's join, then the default join (the task list's concerns definitions only).
    if (
      left.type === "table" &&
      parent.type === "listItem" &&
      parent.spread === false &&
      ((right.type === "heading" && this.setext(right)) || right.type === "paragraph" || right.type === "table")
    ) {
      return "\n\n";
    }
    const result = this.joinDefaults(left, right, parent);
    return result === undefined ? "\n\n" : "\n".repeat(1 + result);
  }

  private joinDefaults(left: Flow | ListItem, right: Flow | ListItem, parent: Parent): number | undefined {
    if (typeof parent.spread !== "boolean") return undefined;
    if (parent.spread) return 1;
    if (left.type === "html") {
      const kind = htmlKind(left.value);
      if (kind === undefined || kind === 6 || kind === 7) return 1;
    }
    if (left.type === "blockquote" && right.type === "blockquote") return 1;
    if (left.type === "paragraph" && right.type === "list" && ((right.ordered && typeof right.start === "number" && right.start !== 1) || (right.children.length > 0 && right.children[0]!.children.length === 0))) {
      return 1;
    }
    if (left.type === "paragraph" && right.type === "thematicBreak") return 1;
    let tail: Flow | ListItem = left;
    while ((tail.type === "blockquote" || tail.type === "list" || tail.type === "listItem") && tail.children.length > 0) {
      tail = tail.children[tail.children.length - 1]!;
    }
    if (tail.type !== "paragraph") return 0;
    if (right.type === "html") {
      const kind = htmlKind(right.value);
      if (kind === undefined || kind === 7) return 1;
    }
    if ((left.type === "paragraph" || (left as unknown) !== tail) && ((right.type === "heading" && this.setext(right)) || right.type === "paragraph")) return 1;
    return 0;
  }

  private setext(node: { depth: number; children: Phrasing[] }): boolean {
    const heading = node as unknown as AnyNode;
    return node.depth < 3 && toPlainString(heading) !== "" && hasLineBreak(heading);
  }

  private flow(node: Flow | ListItem, parent: Parent, info: Info): string {
    switch (node.type) {
      case "paragraph":
        return this.paragraph(node, parent, info);
      case "heading":
        return this.heading(node);
      case "blockquote": {
        this.enter("blockquote");
        const value = indentLines(this.containerFlow(node), (line, _, blank) => `>${blank ? "" : " "}${line}`);
        this.exit();
        return value;
      }
      case "code":
        return this.code(node);
      case "thematicBreak":
        return "---";
      case "html":
        return node.value;
      case "list":
        return this.list(node, parent);
      case "listItem":
        return this.listItem(node, parent as List);
      case "table":
        return this.table(node);
    }
  }

  private paragraph(node: Paragraph, parent: Parent, info: Info): string {
    // A task item's check, before the first paragraph of its item.
    const check = parent.type === "listItem" && typeof parent.checked === "boolean" && parent.children[0] === node ? `[${parent.checked ? "x" : " "}] ` : "";
    const paragraph = check && node.children.length === 0 ? { type: "paragraph" as const, children: [{ type: "text" as const, value: " " }] } : node;
    this.enter("paragraph");
    this.enter("phrasing");
    const value = this.containerPhrasing(paragraph, info);
    this.exit();
    this.exit();
    return check + value;
  }

  private heading(node: { depth: number; children: Phrasing[] }): string {
    const rank = Math.max(Math.min(6, node.depth || 1), 1);
    if (this.setext(node)) {
      this.enter("headingSetext");
      this.enter("phrasing");
      const value = this.containerPhrasing(node, { before: "\n", after: "\n" });
      this.exit();
      this.exit();
      return `${value}\n${(rank === 1 ? "=" : "-").repeat(value.length - (Math.max(value.lastIndexOf("\r"), value.lastIndexOf("\n")) + 1))}`;
    }
    const sequence = "#".repeat(rank);
    this.enter("headingAtx");
    this.enter("phrasing");
    let value = this.containerPhrasing(node, { before: "# ", after: "\n" });
    const head = value.charCodeAt(0);
    if (head === 9 || head === 32) value = encodeCharacterReference(head) + value.slice(1);
    value = value ? `${sequence} ${value}` : sequence;
    this.exit();
    this.exit();
    return value;
  }

  private code(node: { lang: string | null; meta: string | null; value: string }): string {
    const raw = node.value || "";
    const sequence = "`".repeat(Math.max(longestStreak(raw, "`") + 1, 3));
    this.enter("codeFenced");
    let value = sequence;
    if (node.lang) {
      this.enter("codeFencedLangGraveAccent");
      value += this.safe(node.lang, { before: value, after: " ", encode: ["`"] });
      this.exit();
    }
    if (node.lang && node.meta) {
      this.enter("codeFencedMetaGraveAccent");
      value += " ";
      value += this.safe(node.meta, { before: value, after: "\n", encode: ["`"] });
      this.exit();
    }
    value += "\n";
    if (raw) value += `${raw}\n`;
    value += sequence;
    this.exit();
    return value;
  }

  private list(node: List, parent: Parent): string {
    this.enter("list");
    const bulletCurrent = this.bulletCurrent;
    let bullet = node.ordered ? "." : "*";
    const bulletOther = node.ordered ? ")" : "-";
    const useDifferentMarker = parent && this.bulletLastUsed ? bullet === this.bulletLastUsed : false;
    if (useDifferentMarker) bullet = bulletOther;
    this.bulletCurrent = bullet;
    const value = this.containerFlow(node);
    this.bulletLastUsed = bullet;
    this.bulletCurrent = bulletCurrent;
    this.exit();
    return value;
  }

  private listItem(node: ListItem, parent: List): string {
    let bullet = this.bulletCurrent ?? "*";
    if (parent.type === "list" && parent.ordered) {
      bullet = `${(typeof parent.start === "number" && parent.start > -1 ? parent.start : 1) + parent.children.indexOf(node)}${bullet}`;
    }
    const size = bullet.length + 1;
    this.enter("listItem");
    const value = indentLines(this.containerFlow(node), (line, index, blank) => {
      if (index) return (blank ? "" : " ".repeat(size)) + line;
      return (blank ? bullet : bullet + " ".repeat(size - bullet.length)) + line;
    });
    this.exit();
    return value;
  }

  private table(node: TableNode): string {
    this.enter("table");
    const matrix = node.children.map((row) => {
      this.enter("tableRow");
      const cells = row.children.map((cell) => {
        this.enter("tableCell");
        this.enter("phrasing");
        const value = this.containerPhrasing(cell, { before: "|", after: "|" });
        this.exit();
        this.exit();
        return value;
      });
      this.exit();
      return cells;
    });
    this.exit();
    const head = matrix[0];
    if (head) {
      let columns = node.align.length;
      if (!columns) for (const row of matrix) columns = Math.max(columns, row.length);
      while (head.length < columns) head.push("");
    }
    return markdownTable(matrix);
  }

  // ── phrasing ──

  private containerPhrasing(parent: { children: Phrasing[] }, info: Info): string {
    return serialize(this.phrasing(parent, info), info.before, info.after);
  }

  private phrasing(parent: { children: Phrasing[] }, info: Info): (string | AttentionItem)[] {
    const children = parent.children;
    const results: (string | AttentionItem)[] = [];
    let before = info.before;
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index]!;
      const after = index + 1 < children.length ? firstCharacter(this.peek(children[index + 1]!)) : info.after;
      if (child.type === "strong" || child.type === "emphasis" || child.type === "delete") {
        const item = this.attentionItem(child);
        if (!item) continue;
        results.push(item);
        before = lastCharacter(item.sequences[0]!);
      } else {
        const value = this.phrase(child as Exclude<Phrasing, { type: "strong" | "emphasis" | "delete" }>, { before, after });
        if (!value) continue;
        results.push(value);
        before = lastCharacter(value);
      }
    }
    return results;
  }

  /** The start of a node's Markdown, as the node before it needs to know. */
  private peek(node: Phrasing): string {
    switch (node.type) {
      case "strong":
      case "emphasis":
        return "*";
      case "delete":
        return "~";
      case "html":
        return "<";
      case "link":
        return this.autolink(node) ? "<" : "[";
      case "image":
        return "!";
      case "inlineCode":
        return "`";
      case "text":
        return this.safe(node.value, { before: "", after: "" });
    }
  }

  private attentionItem(node: { type: "strong" | "emphasis" | "delete"; children: Phrasing[] }): AttentionItem | undefined {
    const sequences = node.type === "strong" ? ["**", "__"] : node.type === "emphasis" ? ["*", "_"] : ["~~", "~"];
    const sequence = sequences[0]!;
    this.enter(node.type === "delete" ? "strikethrough" : node.type);
    const children = this.phrasing(node, { before: sequence, after: sequence });
    this.exit();
    if (children.length === 0) return undefined;
    return { children, sequences };
  }

  private phrase(node: Exclude<Phrasing, { type: "strong" | "emphasis" | "delete" }>, info: Info): string {
    switch (node.type) {
      case "text":
        return this.safe(node.value, info);
      case "html":
        return node.value;
      case "inlineCode":
        return this.inlineCode(node.value);
      case "link":
        return this.link(node, info);
      case "image":
        return this.image(node);
    }
  }

  private inlineCode(code: string): string {
    let value = code;
    let sequence = "`";
    while (new RegExp(`(^|[^\`])${sequence}([^\`]|$)`).test(value)) sequence += "`";
    if (/[^\n\r ]/.test(value) && ((/^[\n\r ]/.test(value) && /[\n\r ]$/.test(value)) || /^`|`$/.test(value))) value = ` ${value} `;
    if (/[\r\n]/.test(value)) {
      for (const { pattern, expression } of compiled) {
        if (!pattern.atBreak) continue;
        expression.lastIndex = 0;
        let match: RegExpExecArray | null;
        while ((match = expression.exec(value))) {
          let position = match.index;
          if (value.charCodeAt(position) === 10 && value.charCodeAt(position - 1) === 13) position -= 1;
          value = value.slice(0, position) + " " + value.slice(match.index + 1);
        }
      }
    }
    value = sequence + value + sequence;
    if (!this.stack.includes("tableCell")) return value;
    // In a table cell a pipe ends the cell, in code too: each is escaped, and reading the row takes
    // one backslash from before each pipe (GitHub's reading), so code's own `\|` comes back too.
    // (mdast-util-to-markdown added none after an odd number of backslashes, and `\|` read back as `|`.)
    return value.replace(/\|/g, "\\|");
  }

  private autolink(node: { url: string; title: string | null; children: Phrasing[] }): boolean {
    const raw = toPlainString(node as AnyNode);
    return Boolean(
      node.url &&
        !node.title &&
        node.children.length === 1 &&
        node.children[0]!.type === "text" &&
        (raw === node.url || `mailto:${raw}` === node.url) &&
        /^[a-z][+\-.a-z]+:/i.test(node.url) &&
        !/[\0- <>\u007F]/.test(node.url),
    );
  }

  private link(node: { url: string; title: string | null; children: Phrasing[] }, info: Info): string {
    if (this.autolink(node)) {
      const stack = this.stack;
      const scope = this.scope;
      this.stack = stack.filter((name) => name !== "phrasing");
      this.scope = this.stack.reduce((outer, name) => outer.child(name), ROOT_SCOPE);
      this.enter("autolink");
      const value = `<${this.containerPhrasing(node, { before: "<", after: ">" })}>`;
      this.exit();
      this.stack = stack;
      this.scope = scope;
      return value;
    }
    this.enter("link");
    this.enter("label");
    let value = "[";
    const text = this.containerPhrasing(node, { before: value, after: "](" });
    value += text;
    this.exit();
    value += "](";
    const enclose = /[\0- \u007F]/.test(node.url);
    const last = info.before.charAt(info.before.length - 1);
    let title = node.title || undefined;
    if (!title && !enclose && (last === "\n" || last === "\r")) {
      let index = 0;
      while (index < text.length && text.charCodeAt(index) !== 93) index += text.charCodeAt(index) === 92 ? 2 : 1;
      if (text.charCodeAt(index + 1) === 58) title = "";
    }
    if ((!node.url && typeof title === "string") || enclose) {
      this.enter("destinationLiteral");
      value += `<${this.safe(node.url, { before: value, after: ">" })}>`;
    } else {
      this.enter("destinationRaw");
      value += this.safe(node.url, { before: value, after: typeof title === "string" ? " " : ")" });
    }
    this.exit();
    if (typeof title === "string") {
      this.enter("titleQuote");
      value += ' "';
      value += this.safe(title, { before: value, after: '"' });
      value += '"';
      this.exit();
    }
    value += ")";
    this.exit();
    return value;
  }

  private image(node: { url: string; alt: string; title: string | null }): string {
    this.enter("image");
    this.enter("label");
    let value = "![";
    value += this.safe(node.alt, { before: value, after: "]" });
    value += "](";
    this.exit();
    if ((!node.url && node.title) || /[\0- \u007F]/.test(node.url)) {
      this.enter("destinationLiteral");
      value += `<${this.safe(node.url, { before: value, after: ">" })}>`;
    } else {
      this.enter("destinationRaw");
      value += this.safe(node.url, { before: value, after: node.title ? " " : ")" });
    }
    this.exit();
    if (node.title) {
      this.enter("titleQuote");
      value += ' "';
      value += this.safe(node.title, { before: value, after: '"' });
      value += '"';
      this.exit();
    }
    value += ")";
    this.exit();
    return value;
  }
}

/** A GFM table, cells padded to their column's widest (markdown-table with mdast-util-gfm-table's settings). */
function markdownTable(table: string[][]): string {
  const longest: number[] = [];
  let mostCellsPerRow = 0;
  for (const row of table) {
    mostCellsPerRow = Math.max(mostCellsPerRow, row.length);
    row.forEach((cell, column) => {
      if (longest[column] === undefined || cell.length > longest[column]!) longest[column] = cell.length;
    });
  }
  const delimiter: string[] = [];
  for (let column = 0; column < mostCellsPerRow; column += 1) {
    const size = Math.max(1, longest[column]!);
    delimiter[column] = "-".repeat(size);
    if (size > longest[column]!) longest[column] = size;
  }
  const rows = [table[0]!, delimiter, ...table.slice(1)];
  return rows
    .map((row, rowIndex) => {
      const cellsInRow = Math.max(1, rows[rowIndex === 1 ? 0 : rowIndex]!.length);
      let line = "";
      for (let column = 0; column < cellsInRow; column += 1) {
        const cell = row[column] ?? "";
        if (column === 0) line += "|";
        line += ` ${cell}${" ".repeat((longest[column] ?? 0) - cell.length)} |`;
      }
      return line;
    })
    .join("\n");
}

// ─────────────── emphasis, strong and strikethrough (container-phrasing.js) ───────────────

const builtins = new Map([
  ["*", false],
  ["_", true],
]);

type Run = { tokens: Token[]; markers: Token[]; start: number; end: number; open: boolean; close: boolean; split: boolean };

function candidates(tokens: Token[], involved: Token[], runOf: Map<Token, Run>): AttentionItem[] {
  const related = new Set<AttentionItem>();
  for (const token of tokens) {
    const siblings = runOf.get(token);
    if (siblings && token.attention && involved.some((d) => d.attention === token.attention)) {
      for (const sibling of siblings.tokens) related.add(sibling.attention!);
    }
  }
  const ordered: AttentionItem[] = [];
  for (const token of tokens) {
    if (token.attention && related.delete(token.attention)) ordered.push(token.attention);
  }
  ordered.reverse();
  return ordered;
}

function check(tokens: Token[], before: string, after: string): { attention: AttentionItem[]; index: number } | undefined {
  const runs: Run[] = [];
  const wrong = new Map<Token, Token[]>();
  const runOf = new Map<Token, Run>();
  let index = 0;
  while (index < tokens.length) {
    if (!tokens[index]!.attention) {
      index += 1;
      continue;
    }
    const marker = tokens[index]!.value.charAt(0);
    const strict = builtins.get(marker);
    let end = index + 1;
    while (end < tokens.length && tokens[end]!.attention && tokens[end]!.value.charAt(0) === marker) end += 1;
    const head = index ? tokens[index - 1]!.value : before;
    const previous = classifyCharacter(head.charCodeAt(head.length - 1));
    const next = classifyCharacter((end < tokens.length ? tokens[end]!.value : after).charCodeAt(0));
    const open = !next || (next === 2 && Boolean(previous));
    const close = !previous || (previous === 2 && Boolean(next));
    const run: Run = {
      tokens: tokens.slice(index, end),
      markers: [],
      start: 0,
      end: 0,
      open: strict ? open && (Boolean(previous) || !close) : open,
      close: strict ? close && (Boolean(next) || !open) : close,
      split: strict !== undefined,
    };
    for (const token of run.tokens) {
      wrong.set(token, [...run.tokens]);
      runOf.set(token, run);
      for (let size = token.value.length; size > 0; size -= 1) run.markers.push(token);
    }
    run.end = run.markers.length;
    runs.push(run);
    index = end;
  }
  pair(runs, wrong);
  for (index = 0; index < tokens.length; index += 1) {
    const involved = wrong.get(tokens[index]!);
    if (involved) return { attention: candidates(tokens, involved, runOf), index };
  }
  return undefined;
}

function encode(tokens: Token[], start: boolean): void {
  const token = tokens[start ? 0 : tokens.length - 1];
  if (!token || token.attention) return;
  const character = start ? firstCharacter(token.value) : lastCharacter(token.value);
  const reference = encodeCharacterReference(character.codePointAt(0)!);
  if (start) token.value = reference + token.value.slice(character.length);
  else {
    let value = token.value.slice(0, token.value.length - character.length);
    let escapes = 0;
    while (value.charCodeAt(value.length - 1 - escapes) === 92) escapes += 1;
    if (escapes % 2) value += "\\";
    token.value = value + reference;
  }
}

function improve(items: (string | AttentionItem)[], chosen: Map<AttentionItem, string>, mistake: { attention: AttentionItem[]; index: number }, before: string, after: string) {
  for (const attention of mistake.attention) {
    const current = chosen.get(attention) ?? attention.sequences[0];
    for (const sequence of attention.sequences) {
      if (sequence === current) continue;
      const trial = new Map(chosen);
      trial.set(attention, sequence);
      const tokens = render(items, trial, before, after);
      const next = check(tokens, before, after);
      if (!next || next.index > mistake.index) return { chosen: trial, mistake: next, tokens };
    }
  }
  return undefined;
}

function pair(runs: Run[], wrong: Map<Token, Token[]>): void {
  const openersByMarker = new Map<string, Run[]>();
  for (const closer of runs) {
    const marker = closer.tokens[0]!.value.charAt(0);
    let openers = openersByMarker.get(marker);
    if (!openers) {
      openers = [];
      openersByMarker.set(marker, openers);
    }
    let open = closer.close ? openers.length : 0;
    while (open-- && closer.start < closer.end) {
      const opener = openers[open]!;
      const openerSize = opener.end - opener.start;
      const closerSize = closer.end - closer.start;
      if (
        closer.split
          ? (opener.close || closer.open) && closerSize % 3 && !((openerSize + closerSize) % 3)
          : openerSize !== opener.markers.length || openerSize !== closerSize
      ) {
        continue;
      }
      const size = closer.split ? (openerSize > 1 && closerSize > 1 ? 2 : 1) : closerSize;
      const opening = opener.markers.slice(opener.end - size, opener.end);
      const closing = closer.markers.slice(closer.start, closer.start + size);
      const openToken = opening[0]!;
      const closeToken = closing[0]!;
      if (
        openToken === opening[size - 1] &&
        openToken.value.length === size &&
        closeToken === closing[size - 1] &&
        closeToken.value.length === size &&
        openToken.attention === closeToken.attention
      ) {
        wrong.delete(openToken);
        wrong.delete(closeToken);
      } else {
        const involved = [...new Set([...opening, ...closing])];
        for (const token of involved) {
          const list = wrong.get(token);
          if (list) list.push(...involved);
        }
      }
      opener.end -= size;
      closer.start += size;
      if (opener.start === opener.end) openers.splice(open, 1);
      open = openers.length;
    }
    if (closer.open && closer.start < closer.end) openers.push(closer);
  }
}

function fix(items: (string | AttentionItem)[], chosenStart: Map<AttentionItem, string>, before: string, after: string): Token[] | undefined {
  let chosen = chosenStart;
  let tokens = render(items, chosen, before, after);
  let mistake = check(tokens, before, after);
  while (mistake) {
    const next = improve(items, chosen, mistake, before, after);
    if (!next) return undefined;
    chosen = next.chosen;
    tokens = next.tokens;
    mistake = next.mistake;
  }
  return tokens;
}

function guess(items: (string | AttentionItem)[], chosen: Map<AttentionItem, string>, before: string, after: string): void {
  let previous = before;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    if (typeof item === "string") {
      previous = "";
      continue;
    }
    const next = index === items.length - 1 ? after : "";
    const sequence =
      item.sequences.find((value) => {
        const marker = value.charAt(0);
        return (marker !== previous.charAt(0) && marker !== next.charAt(0)) || (items.length === 1 && builtins.has(marker) && value.length > before.length);
      }) ?? item.sequences[0]!;
    if (sequence !== item.sequences[0]) chosen.set(item, sequence);
    guess(item.children, chosen, sequence, sequence);
    previous = sequence;
  }
}

/** How a delimiter run meets a character: whether that character must be written as a reference, inside or outside (encode-info.js). */
function encodeInfo(outside: number, inside: number, marker: string): { inside: boolean; outside: boolean } {
  const outsideKind = classifyCharacter(outside);
  const insideKind = classifyCharacter(inside);
  if (outsideKind === undefined) {
    return insideKind === undefined ? (marker === "_" ? { inside: true, outside: true } : { inside: false, outside: false }) : insideKind === 1 ? { inside: true, outside: true } : { inside: false, outside: true };
  }
  if (outsideKind === 1) {
    return insideKind === undefined ? { inside: false, outside: false } : insideKind === 1 ? { inside: true, outside: true } : { inside: false, outside: false };
  }
  return insideKind === undefined ? { inside: false, outside: false } : insideKind === 1 ? { inside: true, outside: false } : { inside: false, outside: false };
}

function render(items: (string | AttentionItem)[], chosen: Map<AttentionItem, string>, before: string, after: string): Token[] {
  const tokens: Token[] = [];
  let encodeAfter: string | undefined;
  let previous = lastCharacter(before);
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    if (typeof item === "string") {
      const token: Token = { value: item, attention: undefined };
      if (encodeAfter && encodeAfter === firstCharacter(item)) encode([token], true);
      encodeAfter = undefined;
      tokens.push(token);
      if (token.value) previous = lastCharacter(token.value);
      continue;
    }
    const sequence = chosen.get(item) ?? item.sequences[0]!;
    const marker = sequence.charAt(0);
    const next = items[index + 1];
    const outsideBefore = previous;
    const outsideAfter = firstCharacter(next === undefined ? after : typeof next === "string" ? next : (chosen.get(next) ?? next.sequences[0]!));
    const inside = render(item.children, chosen, sequence, sequence);
    const head = inside[0]!.value;
    const open = encodeInfo(outsideBefore.charCodeAt(outsideBefore.length - 1), head.charCodeAt(0), marker);
    if (open.inside) encode(inside, true);
    const tail = lastCharacter(inside[inside.length - 1]!.value);
    const close = encodeInfo(outsideAfter.charCodeAt(0), tail.charCodeAt(tail.length - 1), marker);
    if (close.inside) encode(inside, false);
    if (open.outside && outsideBefore !== "\n" && outsideBefore !== "\r") encode(tokens, false);
    if (close.outside) encodeAfter = outsideAfter;
    tokens.push({ value: sequence, attention: item }, ...inside, { value: sequence, attention: item });
    previous = sequence.charAt(sequence.length - 1);
  }
  return tokens;
}

function serialize(items: (string | AttentionItem)[], before: string, after: string): string {
  const guessed = new Map<AttentionItem, string>();
  guess(items, guessed, before, after);
  const tokens = (guessed.size > 0 ? fix(items, guessed, before, after) : undefined) ?? fix(items, new Map(), before, after) ?? render(items, new Map(), before, after);
  let result = "";
  for (const token of tokens) result += token.value;
  return result;
}

/** Markdown of flow nodes, as mdast-util-to-markdown writes a root of them (no trailing line ending). */
export function writeMarkdown(children: Flow[]): string {
  if (children.length === 0) return "";
  return new Writer().root(children).replace(/\n+$/, "");
}
