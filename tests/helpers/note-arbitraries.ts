/**
 * fast-check arbitraries for a note's body, built from the editor's schema:
 * every block type with its props (non-default values included), inline
 * styles, colours and links, nesting, and the shapes the browser makes
 * (empty paragraphs, hard breaks, a trailing empty block, emoji, tables with
 * empty cells). Blocks come out as the editor stores them: ids, every prop,
 * adjacent text of equal styles merged.
 */
import fc from "fast-check";
import type { Block, Inline, InlineImage, StyledText, TableCell, TableContent } from "@/lib/body/markdown-blocks";

const COLOURS = ["default", "red", "blue", "green", "yellow", "orange", "purple", "pink", "brown", "gray"] as const;
const ALIGNMENTS = ["left", "center", "right", "justify"] as const;
const LANGUAGES = ["text", "javascript", "typescript", "python", "json", "bash", "sql", "c++", "markdown"] as const;

/** Characters that mean something to Markdown, HTML or the comments the converter writes, beside ordinary text. */
const SPECIAL = ["*", "_", "~", "`", "[", "]", "(", ")", "#", ">", "-", "+", "!", "|", "<", ">", "&", "\\", ".", ":", "=", "\"", "'", "{", "}", "1.", "- ", "--", "-->", "<br>", "<u>", "</span>", "&amp;", "&#x20;", "\t"];
const WORDS = ["plan", "milk", "Straße", "ĳ", "日本語", "😀", "👩‍💻", "naïve", "x", "42", "https://example.com", "a_b", "foo*bar", "**", "__"];

const textPiece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 3, arbitrary: fc.constantFrom(" ", "  ") },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 4 }) },
);

/** Text as a person types it: words, spaces, punctuation; with `breaks`, hard line breaks (Shift+Enter). */
const typedText = (breaks: boolean) =>
  fc
    .array(breaks ? fc.oneof({ weight: 8, arbitrary: textPiece }, { weight: 1, arbitrary: fc.constant("\n") }) : textPiece, { minLength: 1, maxLength: 8 })
    .map((pieces) => pieces.join(""))
    .filter((text) => text.length > 0 && !/[\u0000\ud800-\udfff]/u.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")));

const styles = fc.record(
  {
    bold: fc.constant(true as const),
    italic: fc.constant(true as const),
    underline: fc.constant(true as const),
    strike: fc.constant(true as const),
    code: fc.constant(true as const),
    textColor: fc.constantFrom(...COLOURS.slice(1)),
    backgroundColor: fc.constantFrom(...COLOURS.slice(1)),
  },
  { requiredKeys: [] },
);

const withBreaks = typedText(true);
const withoutBreaks = typedText(false);
const styledText: fc.Arbitrary<StyledText> = fc
  .tuple(styles, withBreaks, withoutBreaks)
  // Code is never split by a line break: the editor's inline code holds one line.
  .map(([style, text, line]): StyledText => ({ type: "text", text: style.code ? line : text, styles: style }));

const HREFS = ["https://example.com", "https://example.com/a_b(c)?q=1&r=2#x", "mailto:sam@example.com", "https://example.com/with space", "/relative/path", "https://example.com/*star*"];

const link = fc
  .tuple(fc.constantFrom(...HREFS), fc.array(styledText, { minLength: 1, maxLength: 3 }))
  .map(([href, content]) => ({ type: "link" as const, href, content: mergeRuns(content) as StyledText[] }));

const sameStyles = (a: StyledText["styles"], b: StyledText["styles"]) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((key) => a[key] === b[key]);

/** Adjacent text of equal styles as one run, and adjacent links to one address as one link: as the editor stores them. */
function mergeRuns(items: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item.type === "text" && last?.type === "text" && sameStyles(last.styles, item.styles)) out[out.length - 1] = { ...last, text: last.text + item.text };
    else if (item.type === "link" && last?.type === "link" && last.href === item.href) out[out.length - 1] = { ...last, content: mergeRuns([...last.content, ...item.content]) as StyledText[] };
    else out.push(item);
  }
  return out;
}

/** An image among text, alone or inside a link (`href`). */
const inlineImage: fc.Arbitrary<InlineImage> = fc
  .record({
    url: fc.constantFrom("https://example.com/a.png", "https://example.com/with space.png", "/api/attachments/1", ""),
    alt: fc.constantFrom("", "moon", "a [b] *c*"),
    title: fc.constantFrom("", "A title", 'with "quotes"'),
    href: fc.constantFrom("", "", ...HREFS),
  })
  .map((props) => ({ type: "inlineImage" as const, props }));

export const inlineContent = (maxLength = 4): fc.Arbitrary<Inline[]> =>
  fc
    .array(fc.oneof({ weight: 10, arbitrary: styledText }, { weight: 2, arbitrary: link }, { weight: 1, arbitrary: inlineImage }), { maxLength })
    .map(mergeRuns);

let counter = 0;
const id = fc.constant(null).map(() => `block-${(counter += 1).toString(36)}`);

const colourProps = { backgroundColor: fc.constantFrom(...COLOURS), textColor: fc.constantFrom(...COLOURS), textAlignment: fc.constantFrom(...ALIGNMENTS) };

type BlockParts = { type: string; props: Record<string, unknown>; content?: Inline[] | TableContent };

const tableCell: fc.Arbitrary<TableCell> = fc
  .tuple(inlineContent(2), fc.constantFrom(...COLOURS), fc.constantFrom(...COLOURS), fc.constantFrom(...ALIGNMENTS), fc.constantFrom(1, 1, 1, 1, 2))
  .map(([content, backgroundColor, textColor, textAlignment, span]) => ({
    type: "tableCell",
    props: { backgroundColor, textColor, textAlignment, colspan: span, rowspan: 1 },
    content,
  }));

const table: fc.Arbitrary<BlockParts> = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
  .chain(([rows, columns]) =>
    fc.record({
      textColor: fc.constantFrom(...COLOURS),
      columnWidths: fc.array(fc.option(fc.integer({ min: 40, max: 400 }), { nil: null }), { minLength: columns, maxLength: columns }),
      headerRows: fc.option(fc.constantFrom(1), { nil: undefined }),
      headerCols: fc.option(fc.constantFrom(1), { nil: undefined }),
      rows: fc.array(fc.array(tableCell, { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows }),
    }),
  )
  .map(({ textColor, columnWidths, headerRows, headerCols, rows }) => {
    const content: TableContent = { type: "tableContent", columnWidths, rows: rows.map((cells) => ({ cells })) };
    if (headerRows !== undefined) content.headerRows = headerRows;
    if (headerCols !== undefined) content.headerCols = headerCols;
    return { type: "table", props: { textColor }, content };
  });

const media = (type: "image" | "video" | "audio" | "file") =>
  fc
    .record({
      backgroundColor: fc.constantFrom(...COLOURS),
      name: fc.constantFrom("", "photo.png", "a [b] *c*"),
      url: fc.constantFrom("", "https://example.com/a.png", "https://example.com/with space.png", "/api/attachments/1"),
      caption: fc.constantFrom("", "A caption", "caption with \"quotes\" and *stars*"),
      showPreview: fc.boolean(),
      textAlignment: fc.constantFrom(...ALIGNMENTS),
      previewWidth: fc.option(fc.integer({ min: 64, max: 800 }), { nil: undefined }),
    })
    .map(({ backgroundColor, name, url, caption, showPreview, textAlignment, previewWidth }): BlockParts => {
      const props: Record<string, unknown> = { backgroundColor, name, url, caption };
      if (type !== "file") props.showPreview = showPreview;
      if (type === "image" || type === "video") {
        props.textAlignment = textAlignment;
        if (previewWidth !== undefined) props.previewWidth = previewWidth;
      }
      return { type, props };
    });

const inlineBlock = (type: string, extra: Record<string, fc.Arbitrary<unknown>> = {}, colours: Partial<typeof colourProps> = colourProps) =>
  fc.record({ props: fc.record({ ...colours, ...extra } as Record<string, fc.Arbitrary<unknown>>), content: inlineContent() }).map(({ props, content }): BlockParts => ({ type, props, content }));

const blockParts: fc.Arbitrary<BlockParts> = fc.oneof(
  { weight: 8, arbitrary: inlineBlock("paragraph") },
  { weight: 3, arbitrary: inlineBlock("heading", { level: fc.integer({ min: 1, max: 6 }), isToggleable: fc.boolean() }) },
  { weight: 2, arbitrary: inlineBlock("quote", {}, { backgroundColor: colourProps.backgroundColor, textColor: colourProps.textColor }) },
  { weight: 4, arbitrary: inlineBlock("bulletListItem") },
  {
    weight: 3,
    arbitrary: fc
      .tuple(inlineBlock("numberedListItem"), fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }))
      .map(([block, start]) => (start === undefined ? block : { ...block, props: { ...block.props, start } })),
  },
  { weight: 3, arbitrary: inlineBlock("checkListItem", { checked: fc.boolean() }) },
  { weight: 2, arbitrary: inlineBlock("toggleListItem") },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...LANGUAGES), fc.array(fc.oneof(textPiece, fc.constant("\n")), { maxLength: 8 }))
      .map(([language, pieces]): BlockParts => {
        const text = pieces.join("");
        return { type: "codeBlock", props: { language }, content: text ? [{ type: "text", text, styles: {} }] : [] };
      }),
  },
  { weight: 1, arbitrary: fc.constant<BlockParts>({ type: "divider", props: {} }) },
  { weight: 2, arbitrary: table },
  { weight: 1, arbitrary: media("image") },
  { weight: 1, arbitrary: fc.oneof(media("video"), media("audio"), media("file")) },
);

const CAN_NEST = new Set(["paragraph", "heading", "quote", "bulletListItem", "numberedListItem", "checkListItem", "toggleListItem"]);

/** A block with nested blocks up to `depth` levels below it. */
const blockAt = (depth: number): fc.Arbitrary<Block> =>
  fc
    .tuple(id, blockParts, depth === 0 ? fc.constant<Block[]>([]) : fc.oneof({ weight: 3, arbitrary: fc.constant<Block[]>([]) }, { weight: 1, arbitrary: fc.array(blockAt(depth - 1), { minLength: 1, maxLength: 2 }) }))
    .map(([blockId, parts, children]): Block => ({ id: blockId, ...parts, children: CAN_NEST.has(parts.type) ? children : [] }));
const block = blockAt(3);

/** An empty paragraph, as the editor leaves at the end of a note and between paragraphs. */
const emptyParagraph = id.map((blockId): Block => ({ id: blockId, type: "paragraph", props: { backgroundColor: "default", textColor: "default", textAlignment: "left" }, content: [], children: [] }));

/** A note's body: blocks as the editor stores them, often with empty paragraphs and a trailing empty block. */
export const noteBody: fc.Arbitrary<Block[]> = fc
  .tuple(fc.array(fc.oneof({ weight: 6, arbitrary: block }, { weight: 1, arbitrary: emptyParagraph }), { maxLength: 8 }), fc.boolean(), emptyParagraph)
  .map(([blocks, trailing, last]) => (trailing ? [...blocks, last] : blocks));

/** Markdown as an agent might write it: lines of Markdown syntax, HTML and text, in any order. */
export const agentMarkdown: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom("# ", "## ", "###### ", "- ", "* ", "1. ", "3) ", "- [ ] ", "- [x] ", "> ", "    ", "  ", "```", "```js", "---", "***", "| a | b |", "| - | - |", "<br>", "<u>", "</u>", "<!-- c -->", "<div>", "[x]: https://example.com", "![i](https://e.com/i.png)", "[l](https://e.com)", "[x]", "[^1]", "[^1]: note", "\\", "<span data-text-color=\"red\">", "</span>"),
      textPiece,
      fc.constant("\n"),
      fc.constant("\n\n"),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(""));
