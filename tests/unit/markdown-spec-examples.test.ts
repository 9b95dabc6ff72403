import * as commonmark from "commonmark";
import { tests as commonmarkExamples } from "commonmark-spec";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { runConversion } from "@/lib/body/conversions";
import { GFM_EXTENSION_EXAMPLES } from "@/tests/helpers/gfm-spec-examples";

/**
 * Every example of the CommonMark specification (commonmark-spec) and of the
 * GFM specification's extensions, written as a note's Markdown and read back
 * as GET ?format=markdown reads it: the read Markdown renders to the same HTML
 * as the example (CommonMark's by commonmark.js, GFM's by micromark with GFM, both other implementations than the reader's),
 * except for the constructs a block editor cannot hold, each listed in
 * docs/api.md with what becomes of it. Both are rendered with a single newline
 * in a paragraph as a line break, the notes' rule (docs/api.md).
 *
 * Every example's read Markdown, written back over the note, leaves the blocks
 * and the Markdown byte for byte as they were.
 */

/** CommonMark examples by what becomes of them (docs/api.md, "Markdown a note cannot hold"). */
const COMMONMARK_UNREPRESENTABLE: Record<string, number[]> = {
  "raw HTML, kept as text": [
    21, 31, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
    176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 201, 308, 309, 344, 475, 476, 477, 491, 494, 524, 536, 613, 614,
    615, 616, 617, 623, 625, 626, 627, 628, 629, 630, 631, 642, 643,
  ],
  "link titles, dropped": [22, 23, 32, 33, 192, 193, 194, 195, 196, 202, 217, 482, 505, 506, 509, 510, 527, 539, 542, 543, 553, 554, 555, 556, 557, 558, 559, 561, 593],
  "loose and tight lists, written tight unless an item holds more than text and a list": [109, 300, 306, 311, 313, 314, 315, 317, 320, 321, 326],
  "two bullet lists in a row, one list": [301],
  "emphasis inside the same emphasis, one; strong, emphasis and links around the same text, in one order": [
    369, 373, 389, 407, 408, 409, 416, 417, 418, 419, 425, 426, 427, 432, 433, 461, 463, 464, 465, 466, 467, 468,
  ],
  "a line ending written as a character reference, a line break": [39],
};

const GFM_UNREPRESENTABLE: Record<string, number[]> = {
  "a bare address holding a character Markdown escapes, linked by fewer renderers": [626, 627, 631],
};

const cmParser = new commonmark.Parser();
const cmRenderer = new commonmark.HtmlRenderer({ softbreak: "<br />\n" });
const sameBreaks = (html: string) => html.replace(/<br \/>\n|<br>/g, "<br />");
const renderCommonmark = (markdown: string) => sameBreaks(cmRenderer.render(cmParser.parse(markdown)));
const renderGfm = (markdown: string) =>
  sameBreaks(
    micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true })
      // micromark has no soft-break option: a line ending between two pieces of text in a paragraph.
      .replace(/([^>\n])\n(?=[^<\n])/g, "$1<br />"),
  ).trimEnd();

/** The blocks of a note written as `markdown`, and its Markdown as read. */
async function writeAndRead(markdown: string): Promise<{ content: unknown; read: string }> {
  const written = await runConversion({ kind: "markdown", markdown });
  if (!written.ok) throw new Error(written.reason);
  return { content: written.content, read: written.markdown };
}

async function expectWriteBackUnchanged(content: unknown, read: string): Promise<void> {
  const again = await runConversion({ kind: "markdown", markdown: read, current: content });
  expect(again).toMatchObject({ ok: true, markdown: read });
  expect(again.ok && again.content).toEqual(content);
}

function exampleNumbers(lists: Record<string, number[]>): Map<number, string> {
  const byNumber = new Map<number, string>();
  for (const [construct, numbers] of Object.entries(lists)) for (const number of numbers) byNumber.set(number, construct);
  return byNumber;
}

describe("the CommonMark specification's examples, written as a note and read back", () => {
  const listed = exampleNumbers(COMMONMARK_UNREPRESENTABLE);

  it.each(commonmarkExamples.map((example) => [example.number, example.section, example.markdown.replace(/→/g, "\t")] as const))(
    "example %i (%s)",
    async (number, _section, markdown) => {
      const { content, read } = await writeAndRead(markdown);
      const construct = listed.get(number);
      if (construct === undefined) expect(renderCommonmark(read)).toBe(renderCommonmark(markdown));
      // A listed example still differs: the list stays current.
      else expect(renderCommonmark(read), construct).not.toBe(renderCommonmark(markdown));
      await expectWriteBackUnchanged(content, read);
    },
  );
});

describe("the GFM specification's extension examples, written as a note and read back", () => {
  const listed = exampleNumbers(GFM_UNREPRESENTABLE);

  it.each(GFM_EXTENSION_EXAMPLES.map((example) => [example.number, example.section, example.markdown] as const))("example %i (%s)", async (number, _section, markdown) => {
    const { content, read } = await writeAndRead(markdown);
    const construct = listed.get(number);
    if (construct === undefined) expect(renderGfm(read)).toBe(renderGfm(markdown));
    else expect(renderGfm(read), construct).not.toBe(renderGfm(markdown));
    await expectWriteBackUnchanged(content, read);
  });
});
