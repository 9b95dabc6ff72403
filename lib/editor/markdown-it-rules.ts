/**
 * markdown-it rules that read Markdown as GitHub's parser (micromark with
 * its GFM extensions) does, where markdown-it reads it differently:
 *
 * - code spans: one space each side is stripped only when the code is not all
 *   spaces (markdown-it strips it from code of spaces too);
 * - strikethrough: `~text~` as well as `~~text~~`, a closing run the same
 *   length as the opening one, a run of three or more tildes plain text;
 * - tables: a row with more cells than the header keeps them all (markdown-it
 *   drops the extra cells and their text).
 *
 * The code span and table rules are markdown-it 14's own (MIT), changed only
 * where said. Pure; relative imports only (loaded in the conversion worker).
 */
import type { StateBlock, StateInline } from "markdown-it";
import type { Delimiter } from "markdown-it/lib/rules_inline/state_inline.mjs";

type InlineState = StateInline & { backticksScanned?: boolean; backticks: Record<number, number> };

const BACKTICK = 0x60;
const TILDE = 0x7e;
/** The marker of a one-tilde run, so that balance_pairs pairs runs of equal length only. */
const SINGLE_TILDE = 0x7e + 0x10000;

export function codeSpan(state: StateInline, silent: boolean): boolean {
  const scanned = state as InlineState;
  const src = state.src;
  let pos = state.pos;
  if (src.charCodeAt(pos) !== BACKTICK) return false;
  const start = pos;
  pos += 1;
  const max = state.posMax;
  while (pos < max && src.charCodeAt(pos) === BACKTICK) pos += 1;
  const marker = src.slice(start, pos);
  const openerLength = marker.length;
  if (scanned.backticksScanned && (scanned.backticks[openerLength] ?? 0) <= start) {
    if (!silent) state.pending += marker;
    state.pos += openerLength;
    return true;
  }
  let matchEnd = pos;
  let matchStart: number;
  while ((matchStart = src.indexOf("`", matchEnd)) !== -1) {
    matchEnd = matchStart + 1;
    while (matchEnd < max && src.charCodeAt(matchEnd) === BACKTICK) matchEnd += 1;
    const closerLength = matchEnd - matchStart;
    if (closerLength === openerLength) {
      if (!silent) {
        const token = state.push("code_inline", "code", 0);
        token.markup = marker;
        const code = src.slice(pos, matchStart).replace(/\n/g, " ");
        // Changed: CommonMark's rule (markdown-it's `/^ (.+) $/` strips code of spaces too).
        token.content = /^ .*[^ ].* $/s.test(code) ? code.slice(1, -1) : code;
      }
      state.pos = matchEnd;
      return true;
    }
    scanned.backticks[closerLength] = matchStart;
  }
  scanned.backticksScanned = true;
  if (!silent) state.pending += marker;
  state.pos += openerLength;
  return true;
}

/** A run of one or two tildes: a strikethrough delimiter; three or more: text. */
export function strikethrough(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push("text", "", 0);
  token.content = "~".repeat(scanned.length);
  if (scanned.length <= 2) {
    state.delimiters.push({
      marker: scanned.length === 1 ? SINGLE_TILDE : TILDE,
      // No rule of 3 (it is for emphasis).
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function pairStrikethrough(state: StateInline, delimiters: readonly Delimiter[]): void {
  for (const start of delimiters) {
    if ((start.marker !== TILDE && start.marker !== SINGLE_TILDE) || start.end === -1) continue;
    const end = delimiters[start.end]!;
    const markup = start.marker === TILDE ? "~~" : "~";
    const open = state.tokens[start.token]!;
    open.type = "s_open";
    open.tag = "s";
    open.nesting = 1;
    open.markup = markup;
    open.content = "";
    const close = state.tokens[end.token]!;
    close.type = "s_close";
    close.tag = "s";
    close.nesting = -1;
    close.markup = markup;
    close.content = "";
  }
}

export function strikethroughPairs(state: StateInline): boolean {
  pairStrikethrough(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) pairStrikethrough(state, meta.delimiters);
  return true;
}

// ─────────────────────────────── tables ───────────────────────────────

// Empty cells added to short rows, at most (markdown-it's guard against a small input growing huge).
const MAX_AUTOCOMPLETED_CELLS = 0x10000;

const isSpace = (code: number) => code === 0x09 || code === 0x20;

function getLine(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

function escapedSplit(str: string): string[] {
  const result: string[] = [];
  let isEscaped = false;
  let lastPos = 0;
  let current = "";
  for (let pos = 0; pos < str.length; pos += 1) {
    const ch = str.charCodeAt(pos);
    if (ch === 0x7c) {
      if (!isEscaped) {
        result.push(current + str.substring(lastPos, pos));
        current = "";
        lastPos = pos + 1;
      } else {
        current += str.substring(lastPos, pos - 1);
        lastPos = pos;
      }
    }
    isEscaped = ch === 0x5c;
  }
  result.push(current + str.substring(lastPos));
  return result;
}

function rowCells(lineText: string): string[] {
  const columns = escapedSplit(lineText);
  if (columns.length && columns[0] === "") columns.shift();
  if (columns.length && columns[columns.length - 1] === "") columns.pop();
  return columns;
}

export function table(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine + 2 > endLine) return false;
  let nextLine = startLine + 1;
  if (state.sCount[nextLine]! < state.blkIndent) return false;
  if (state.sCount[nextLine]! - state.blkIndent >= 4) return false;
  // The delimiter row: /^[-:|][-:|\s]*$/, not a list item.
  let pos = state.bMarks[nextLine]! + state.tShift[nextLine]!;
  if (pos >= state.eMarks[nextLine]!) return false;
  const firstCh = state.src.charCodeAt(pos++);
  if (firstCh !== 0x7c && firstCh !== 0x2d && firstCh !== 0x3a) return false;
  if (pos >= state.eMarks[nextLine]!) return false;
  const secondCh = state.src.charCodeAt(pos++);
  if (secondCh !== 0x7c && secondCh !== 0x2d && secondCh !== 0x3a && !isSpace(secondCh)) return false;
  if (firstCh === 0x2d && isSpace(secondCh)) return false;
  while (pos < state.eMarks[nextLine]!) {
    const ch = state.src.charCodeAt(pos);
    if (ch !== 0x7c && ch !== 0x2d && ch !== 0x3a && !isSpace(ch)) return false;
    pos += 1;
  }
  const delimiterCells = getLine(state, startLine + 1).split("|");
  let aligns = 0;
  for (let i = 0; i < delimiterCells.length; i += 1) {
    const t = delimiterCells[i]!.trim();
    if (!t) {
      if (i === 0 || i === delimiterCells.length - 1) continue;
      return false;
    }
    if (!/^:?-+:?$/.test(t)) return false;
    aligns += 1;
  }
  let lineText = getLine(state, startLine).trim();
  if (!lineText.includes("|")) return false;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  let columns = rowCells(lineText);
  const columnCount = columns.length;
  if (columnCount === 0 || columnCount !== aligns) return false;
  if (silent) return true;

  const oldParentType = state.parentType;
  state.parentType = "table" as typeof state.parentType;
  const terminatorRules = state.md.block.ruler.getRules("blockquote");
  const tableOpen = state.push("table_open", "table", 1);
  const tableLines: [number, number] = [startLine, 0];
  tableOpen.map = tableLines;
  state.push("thead_open", "thead", 1).map = [startLine, startLine + 1];
  state.push("tr_open", "tr", 1).map = [startLine, startLine + 1];
  for (const column of columns) {
    state.push("th_open", "th", 1);
    const inline = state.push("inline", "", 0);
    inline.content = column.trim();
    inline.children = [];
    state.push("th_close", "th", -1);
  }
  state.push("tr_close", "tr", -1);
  state.push("thead_close", "thead", -1);

  let tbodyLines: [number, number] | undefined;
  let autocompletedCells = 0;
  for (nextLine = startLine + 2; nextLine < endLine; nextLine += 1) {
    if (state.sCount[nextLine]! < state.blkIndent) break;
    if (terminatorRules.some((rule) => rule(state, nextLine, endLine, true))) break;
    lineText = getLine(state, nextLine).trim();
    if (!lineText) break;
    if (state.sCount[nextLine]! - state.blkIndent >= 4) break;
    columns = rowCells(lineText);
    autocompletedCells += columnCount - columns.length;
    if (autocompletedCells > MAX_AUTOCOMPLETED_CELLS) break;
    if (nextLine === startLine + 2) {
      tbodyLines = [startLine + 2, 0];
      state.push("tbody_open", "tbody", 1).map = tbodyLines;
    }
    state.push("tr_open", "tr", 1).map = [nextLine, nextLine + 1];
    // Changed: every cell of a row wider than the header is kept.
    for (let i = 0; i < Math.max(columnCount, columns.length); i += 1) {
      state.push("td_open", "td", 1);
      const inline = state.push("inline", "", 0);
      inline.content = columns[i] ? columns[i]!.trim() : "";
      inline.children = [];
      state.push("td_close", "td", -1);
    }
    state.push("tr_close", "tr", -1);
  }
  if (tbodyLines) {
    state.push("tbody_close", "tbody", -1);
    tbodyLines[1] = nextLine;
  }
  state.push("table_close", "table", -1);
  tableLines[1] = nextLine;
  state.parentType = oldParentType;
  state.line = nextLine;
  return true;
}

// ─────────────────────────── emphasis delimiters ───────────────────────────

const WHITESPACE = /\s/;
const PUNCTUATION = /\p{P}|\p{S}/u;

/** 1 for whitespace (a line's start and end included), 2 for punctuation, 0 otherwise: micromark's classes, by UTF-16 unit (an emoji beside a delimiter counts as a letter there). */
function characterClass(code: number): 0 | 1 | 2 {
  if (Number.isNaN(code)) return 1;
  const char = String.fromCharCode(code);
  if (WHITESPACE.test(char)) return 1;
  return PUNCTUATION.test(char) ? 2 : 0;
}

/**
 * StateInline's scanDelims with the characters around a run classified as
 * GitHub's parser does: markdown-it combines surrogate pairs, so an emoji
 * next to `_` or `*` counts as punctuation there and as a letter in micromark,
 * and the two read `_😀_a_` differently.
 */
export function scanDelims(this: StateInline, start: number, canSplitWord: boolean): ReturnType<StateInline["scanDelims"]> {
  const max = this.posMax;
  const marker = this.src.charCodeAt(start);
  const last = start === 0 ? 1 : characterClass(this.src.charCodeAt(start - 1));
  let pos = start;
  while (pos < max && this.src.charCodeAt(pos) === marker) pos += 1;
  const next = pos < max ? characterClass(this.src.charCodeAt(pos)) : 1;
  const leftFlanking = next !== 1 && (next !== 2 || last !== 0);
  const rightFlanking = last !== 1 && (last !== 2 || next !== 0);
  return {
    can_open: leftFlanking && (canSplitWord || !rightFlanking || last === 2),
    can_close: rightFlanking && (canSplitWord || !leftFlanking || next === 2),
    length: pos - start,
  };
}
