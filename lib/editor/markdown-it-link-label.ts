/**
 * markdown-it's `parseLinkLabel` (the end of a link's or image's label), with
 * the same answers in linear time on text full of brackets.
 *
 * markdown-it's own walks from a `[` to the end of the inline text, token by
 * token (`skipToken`), counting the brackets that are text, until the one that
 * closes it; the link rule asks this for every `[`, so a paragraph of `[`s
 * (or of `![`, or `[a`) costs time quadratic in its length. Each token's end is
 * kept in the inline state's cache (`state.cache`, by position) the first time
 * it is skipped, and never changes after: once a walk has passed a `[` that is
 * text, the walk from that `[` would skip the same cached tokens, so its end is
 * known. A walk keeps a stack of the `[`s it passes: the `]` that closes one
 * is that bracket's end; a walk that reaches the end of the text, or stops at a
 * link inside a link's label, leaves every bracket still open without an end
 * (-1), and so would a walk from any of them. A later walk from one of them
 * answers at once, and a walk that passes one goes straight to its `]` (or,
 * for a bracket without an end, to the same answer: none).
 *
 * Only cached tokens are passed over that way: every token markdown-it's walk
 * would skip for the first time (running the inline rules, whose answers
 * depend on the nesting level and so on the order they run in) is still
 * skipped, at the same level and in the same order, so the cache and every
 * answer are markdown-it's own. The ends are kept per inline state, per end of
 * the text being read (`state.posMax`: a link's label is read with the label's
 * end as the end) and per `disableNested` (a link's walk stops at a link inside
 * it; an image's does not).
 *
 * markdown-it 14's helpers/parse_link_label.mjs (MIT), changed where said.
 * Pure; relative imports only (loaded in the conversion worker).
 */
import type { StateInline } from "markdown-it";

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]

/**
 * A state's label ends for one `disableNested`: `ends[p]` is the answer for
 * the `[` at p (-1: none) when `ranges[p]` is the `posMax` it holds for, plus
 * one (0: none known). An answer for another `posMax` replaces it: the walks
 * through a link's label with the label's end as `posMax` come after every
 * walk that reaches the label from before it, and no walk starts before a
 * position the inline rules have read past.
 */
type Ends = { ranges: Int32Array; ends: Int32Array };

/** Per inline state: its ends without `disableNested` (index 0), and with it (1). */
const labelEnds = new WeakMap<StateInline, (Ends | undefined)[]>();

function endsFor(state: StateInline, stopAtLinks: boolean): Ends {
  let both = labelEnds.get(state);
  if (both === undefined) {
    both = [undefined, undefined];
    labelEnds.set(state, both);
  }
  const index = stopAtLinks ? 1 : 0;
  let ends = both[index];
  if (ends === undefined) {
    ends = { ranges: new Int32Array(state.src.length), ends: new Int32Array(state.src.length) };
    both[index] = ends;
  }
  return ends;
}

/** The position of the `]` that ends the label opened by the `[` at `start`, or -1. */
export function parseLinkLabel(state: StateInline, start: number, disableNested?: boolean): number {
  const stopAtLinks = Boolean(disableNested);
  const { ranges, ends } = endsFor(state, stopAtLinks);
  const max = state.posMax;
  const range = max + 1;
  if (ranges[start] === range) return ends[start]!;

  const oldPos = state.pos;
  // Changed: the brackets still open, outermost first, in place of their count.
  const open = [start];
  let labelEnd = -1;

  state.pos = start + 1;
  while (state.pos < max) {
    const marker = state.src.charCodeAt(state.pos);
    if (marker === CLOSE) {
      const opened = open.pop()!;
      ranges[opened] = range;
      ends[opened] = state.pos;
      if (open.length === 0) {
        labelEnd = state.pos;
        break;
      }
    }

    const prevPos = state.pos;
    state.md.inline.skipToken(state);
    if (marker === OPEN) {
      if (prevPos === state.pos - 1) {
        // A `[` that is text, not part of a token.
        open.push(prevPos);
        // Changed: a bracket an earlier walk passed leads to its `]`, or, without one, to the same answer.
        if (ranges[prevPos] === range) {
          const end = ends[prevPos]!;
          if (end === -1) break;
          state.pos = end;
        }
      } else if (stopAtLinks) {
        break;
      }
    }
  }

  for (const opened of open) {
    ranges[opened] = range;
    ends[opened] = -1;
  }
  state.pos = oldPos;
  return labelEnd;
}
