/**
 * Note bodies that cost a Markdown converter far more than their size
 * suggests, each within the documented limits (100,000 characters of
 * Markdown, or content JSON a request body can carry).
 */
const MARKDOWN_MAX = 100_000;

const fill = (unit: string, size = MARKDOWN_MAX) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

function linesUpTo(size: number, line: (i: number) => string, head = ""): string {
  let text = head;
  for (let i = 0; ; i += 1) {
    const next = line(i);
    if (text.length + next.length > size) return text;
    text += next;
  }
}

export const HOSTILE_MARKDOWN: Record<string, string> = {
  "a ~100 KB Markdown table": linesUpTo(MARKDOWN_MAX, (i) => `| row ${i} | cell b${i} | cell c${i} | cell d${i} |\n`, "| A | B | C | D |\n| --- | --- | --- | --- |\n"),
  "'>>> q' repeated to 100 KB": fill(">>> q\n\n"),
  "100 KB of '['": fill("["),
  "100 KB of '[' closed by one ']'": `${fill("[", MARKDOWN_MAX - 1)}]`,
  "50 KB of '[' then 50 KB of ']'": fill("[", MARKDOWN_MAX / 2) + fill("]", MARKDOWN_MAX / 2),
  "100 KB of '!['": fill("!["),
  "50 KB of ']' then 50 KB of '['": fill("]", MARKDOWN_MAX / 2) + fill("[", MARKDOWN_MAX / 2),
  "'[a' repeated, closed by '](x)'": `${fill("[a", MARKDOWN_MAX - 4)}](x)`,
  "100 KB of '*a _b '": fill("*a _b "),
  "20,000 lines of '> q'": "> q\n".repeat(20_000),
  "a list nested hundreds deep": linesUpTo(MARKDOWN_MAX, (i) => `${"  ".repeat(i % 500)}- level ${i}\n`),
  "a table 400 columns wide": linesUpTo(MARKDOWN_MAX, () => `|${" x |".repeat(400)}\n`, `|${" c |".repeat(400)}\n|${"---|".repeat(400)}\n`),
  "a long run of emphasis markers": fill("**"),
  "alternating emphasis markers": fill("*_~"),
  "thousands of links": linesUpTo(MARKDOWN_MAX, (i) => `[link ${i}](https://example.com/page/${i}) `),
  "one 100 KB line": fill("word "),
  "a 100 KB code block": `\`\`\`js\n${linesUpTo(MARKDOWN_MAX - 10, (i) => `const value${i} = compute(${i}); // step ${i}\n`)}\`\`\`\n`,
  "HTML nested 20,000 deep": fill("<div>"),
  "block quotes 100,000 deep": fill(">"),
};

function paragraph(text: string, children: unknown[] = []) {
  return { type: "paragraph", props: {}, content: [{ type: "text", text, styles: {} }], children };
}

/** Deeper than any stack: only its JSON text can be built (JSON.stringify would overflow). */
const deepJson = (depth: number) => `[{"type":"paragraph","content":"top","children":[${"[".repeat(depth)}"bottom"${"]".repeat(depth)}]}]`;

/**
 * BlockNote bodies as JSON text: big, wide and deep, within a request body's
 * 1 MiB, and past the depth limit (Prisma overflowed its stack at ~2,500 levels).
 */
export const HOSTILE_CONTENT: Record<string, string> = {
  "a table of 3,000 rows": JSON.stringify([
    {
      type: "table",
      props: {},
      content: {
        type: "tableContent",
        columnWidths: [null, null, null],
        rows: Array.from({ length: 3000 }, (_, i) => ({
          cells: [`r${i}`, `a${i}`, `b${i}`].map((text) => ({ type: "tableCell", props: {}, content: [{ type: "text", text, styles: {} }] })),
        })),
      },
      children: [],
    },
  ]),
  "8,000 blocks": JSON.stringify(Array.from({ length: 8000 }, (_, i) => paragraph(`block ${i}`))),
  "blocks nested 40 deep": (() => {
    let block = paragraph("leaf");
    for (let i = 0; i < 40; i += 1) block = paragraph(`level ${i}`, [block]);
    return JSON.stringify([block]);
  })(),
  "JSON nested 5,000 deep": deepJson(5000),
  "JSON nested 200,000 deep": deepJson(200_000),
};
