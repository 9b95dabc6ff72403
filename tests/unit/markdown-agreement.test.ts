import { BlockNoteEditor } from "@blocknote/core";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realisticMarkdown } from "@/bench/markdown-notes";
import { markdownToBlocks } from "@/lib/body/markdown-blocks";
import { noteSchema } from "@/lib/body/schema";

/**
 * The browser reads pasted or imported Markdown with BlockNote's own parser;
 * the server reads an agent's with lib/body/markdown-blocks.ts. On the
 * Markdown people and agents write, both make the same blocks (ids aside).
 * Where the server's own Markdown has forms BlockNote's has not (`<br>` for an
 * empty paragraph, block comments), the server's reading is the one that
 * round-trips; those are not compared here. Nor is inline code inside
 * emphasis: the server keeps both styles the Markdown gives it, where the
 * editor's code mark drops the others.
 */
const CONSTRUCTS = [
  "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six",
  "Some *italic*, **bold**, ~~struck~~ and `inline code`, and [a link](https://example.com/a?b=1).",
  "- first\n- second\n  - nested\n    - deeper",
  "1. one\n2. two\n3. three",
  "4. starts at four\n5. five",
  "- [ ] open\n- [x] done",
  "```ts\nconst answer = 42;\n  indented();\n```",
  "```\nno language\n```",
  "> a quote with **bold**",
  "| Name | Qty |\n| --- | --- |\n| apples | 3 |\n| pears | 10 |",
  "![a cat](https://example.com/cat.png)",
  "before\n\n---\n\nafter",
  "A line with a [**bold link**](https://example.com) and *emphasis* then `code`.",
  "Escaped \\*stars\\* and \\[brackets\\] stay text.",
];

type Shaped = { type: string; props: unknown; content: unknown; children: Shaped[] };
const shape = (blocks: { type: string; props: unknown; content?: unknown; children?: unknown[] }[]): Shaped[] =>
  blocks.map((block) => ({ type: block.type, props: block.props, content: block.content, children: shape((block.children ?? []) as never[]) }));

describe("BlockNote's Markdown import and the server's agree on ordinary Markdown", () => {
  let editor: BlockNoteEditor;
  const scope = globalThis as { window?: unknown; document?: unknown };

  beforeAll(() => {
    const dom = new JSDOM("<!doctype html><html><body></body></html>");
    scope.window = dom.window;
    scope.document = dom.window.document;
    editor = BlockNoteEditor.create({ schema: noteSchema }) as unknown as BlockNoteEditor;
  });
  afterAll(() => {
    scope.window = undefined;
    scope.document = undefined;
  });

  // A note cut at its size may end inside a code block: closed, as a person would.
  const closed = (markdown: string) => ((markdown.match(/^```/gm)?.length ?? 0) % 2 === 1 ? `${markdown}\`\`\`\n` : markdown);
  const corpus = [
    ...CONSTRUCTS.map((markdown, i) => [`construct ${i + 1}`, markdown] as const),
    ...Array.from({ length: 12 }, (_, i) => [`realistic note ${i + 1}`, closed(realisticMarkdown(i + 1, 6000))] as const),
  ];

  it.each(corpus)("%s", async (_name, markdown) => {
    const theirs = JSON.parse(JSON.stringify(await editor.tryParseMarkdownToBlocks(markdown))) as Parameters<typeof shape>[0];
    expect(shape(markdownToBlocks(markdown))).toEqual(shape(theirs));
  });
});
