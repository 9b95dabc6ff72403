import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { HOSTILE_MARKDOWN } from "@/bench/hostile-content";
import { MarkdownBlockError, markdownParser, markdownToBlocks } from "@/lib/editor/markdown-blocks";

/**
 * The reader's parseLinkLabel (lib/editor/markdown-it-link-label.ts) answers
 * as markdown-it's own does, in linear time: the same parser with markdown-it's
 * own gives the same tokens for any Markdown. A failure prints its seed and
 * path, and FC_SEED=<seed> FC_PATH=<path> replays it.
 */
const RUNS = Number(process.env.FC_RUNS ?? 2000);
const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {};
const settings = { numRuns: RUNS, ...replay };

const markdownItsOwn = new MarkdownIt().helpers.parseLinkLabel;

/** The reader's parser, and the same with markdown-it's parseLinkLabel; both as deep as `maxNesting`, if given. */
function parsers(maxNesting?: number): { ours: MarkdownIt; theirs: MarkdownIt } {
  const ours = markdownParser();
  const theirs = markdownParser();
  theirs.helpers.parseLinkLabel = markdownItsOwn;
  if (maxNesting !== undefined) {
    for (const parser of [ours, theirs]) (parser.options as { maxNesting?: number }).maxNesting = maxNesting;
  }
  return { ours, theirs };
}

const tokens = (parser: MarkdownIt, markdown: string) => JSON.stringify(parser.parse(markdown, {}));

const PIECES = [
  ...["[", "]", "(", ")", "!", "a", " ", "`", "<", ">", "*", "\\", "\n", ":", "x", "~", "_", "&", "|"],
  ...["[", "]", "[", "]", "!["],
  ...["[a](x)", "![a](x)", "[a]", "[x]", "[a][x]", "[a][]", "[]", "](x)", "](<x>)", '](x "t")', "][x]", "[a]: x\n", "\n[x]: <y> 'z'\n", "\n\n"],
  ...["`[`", "``]``", "<x>", "<a href=x>", "\\[", "\\]", "&#91;", "**[", "]**", "~~", "[^a]"],
];
/** Bracket-heavy text, sometimes after reference definitions (their labels make `[a]`, `[x]` links of their own). */
const bracketHeavy = fc
  .tuple(
    fc.constantFrom("", "", "[a]: x\n\n", "[x]: <y> 't'\n[a]: z\n\n", "[a]]: x\n\n"),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }),
  )
  .map(([definitions, pieces]) => definitions + pieces.join(""));

describe("parseLinkLabel", () => {
  it("is the reader's own, not markdown-it's", () => {
    const { ours, theirs } = parsers();
    expect(ours.helpers.parseLinkLabel).not.toBe(theirs.helpers.parseLinkLabel);
    expect(theirs.helpers.parseLinkLabel).toBe(markdownItsOwn);
  });

  it("gives markdown-it's tokens for bracket-heavy Markdown", () => {
    const { ours, theirs } = parsers();
    fc.assert(
      fc.property(bracketHeavy, (markdown) => {
        expect(tokens(ours, markdown)).toBe(tokens(theirs, markdown));
      }),
      settings,
    );
  });

  it("gives markdown-it's tokens where brackets nest past maxNesting (markdown-it reads the rest as text)", () => {
    const shallow = [2, 3, 4, 6].map((depth) => parsers(depth));
    fc.assert(
      fc.property(bracketHeavy, fc.nat(shallow.length - 1), (markdown, which) => {
        const { ours, theirs } = shallow[which]!;
        expect(tokens(ours, markdown)).toBe(tokens(theirs, markdown));
      }),
      settings,
    );
  });

  it.each([
    ["'['", "[".repeat(3000)],
    ["'[' closed by one ']'", `${"[".repeat(2999)}]`],
    ["'[' then ']'", "[".repeat(1500) + "]".repeat(1500)],
    ["'!['", "![".repeat(1500)],
    ["']' then '['", "]".repeat(1500) + "[".repeat(1500)],
    ["'[a' closed by '](x)'", `${"[a".repeat(1500)}](x)`],
    ["'![a' closed by '](x)'", `${"![a".repeat(1000)}](x)`],
    ["'[a](' and '[a]'", "[a](".repeat(500) + "[a]".repeat(500)],
  ])("gives markdown-it's tokens for 3,000 characters of %s, past the reader's maxNesting", (_name, markdown) => {
    const { ours, theirs } = parsers();
    expect(tokens(ours, markdown)).toBe(tokens(theirs, markdown));
  });
});

describe("every hostile Markdown body of the benchmark", () => {
  it.each(Object.entries(HOSTILE_MARKDOWN))("%s: is converted, or refused as Markdown the reader cannot read", (_name, markdown) => {
    let blocks: unknown;
    try {
      blocks = markdownToBlocks(markdown);
    } catch (error) {
      expect(error).toBeInstanceOf(MarkdownBlockError);
      return;
    }
    expect(Array.isArray(blocks)).toBe(true);
  });
});
