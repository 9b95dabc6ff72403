/**
 * Markdown of every kind a person or an agent writes, generated from a seed:
 * the constructs BlockNote knows (headings, nested and task lists, quotes,
 * code, tables, links, images, marks) mixed with what it does not (raw and
 * broken HTML, entities, escapes, stray markers, odd whitespace, scripts
 * other than Latin). Used to hold two implementations of the conversions to
 * the same output.
 *
 * One known difference is left out: a colour written in hex in raw HTML's
 * inline style (`<span style="color: #FF0000">`). JSDOM rewrites it as
 * `rgb(255, 0, 0)`; the server's DOM keeps it as written. Neither is a colour
 * of BlockNote's, so the editor shows the text uncoloured either way.
 */
import { seededRandom } from "../../bench/generate";

const WORDS = [
  "note", "agent", "plan", "Zoë", "naïve", "東京", "привет", "مرحبا", "🙂", "a&b", "x<y", "q\"t", "it's", "snake_case", "kebab-case",
  "C++", "1.5", "#tag", "@name", "100%", "~tilde", "back\\slash", "pipe|bar", "star*", "under_", "`tick", "[bracket]", "(paren)", "{brace}", "a  b",
];

const HTML_SNIPPETS = [
  "<b>bold</b>", "<i>it</i>", "<u>under</u>", "<s>strike</s>", "<br>", "<br/>", "<span style=\"color:red\">red</span>", "<mark>m</mark>",
  "<a href=\"https://example.com\">a</a>", "<img src=\"https://example.com/x.png\" alt=\"x\">", "<code>c</code>", "<kbd>k</kbd>", "<sub>2</sub>",
  "<b>unclosed", "</p>", "<p>para", "<div>block</div>", "<table><tr><td>cell</td></tr></table>", "<ul><li>one<li>two</ul>", "<details><summary>s</summary>d</details>",
  "<script>alert(1)</script>", "<style>p{}</style>", "<!-- comment -->", "<svg><circle r=\"1\"/></svg>", "<input type=\"checkbox\" checked>",
  "<input type=\"CHECKBOX\">", "<pre>  pre\n  text</pre>", "<p><div>nested</div></p>", "<em><strong>mis</em>nested</strong>", "&nbsp;", "&amp;", "&lt;tag&gt;",
  "&#169;", "&#x1F600;", "&bogus;", "<h2>h</h2>", "<blockquote>q</blockquote>", "<ol start=\"3\"><li>three</li></ol>", "<video src=\"v.mp4\"></video>",
  "<img src=\"rel/x.png\" width=\"120\" alt=\"a&amp;b\">", "<img src=\"https://EXAMPLE.com/a b.png\" width=\"50%\">", "<img width=\" +7px\" src=\"//cdn.example.com/i.png\">",
  "<video src=\"https://example.com/v.mp4\" width=\"300\" controls></video>", "<audio src=\"a.mp3\"></audio>", "<iframe src=\"https://example.com/e\"></iframe>",
  "<a href=\"100%\">pct</a>", "<a href=\"https://example.com/ü?q=1&amp;r=2#h\">u</a>", "<a href=\"/relative\">rel</a>", "<a>no href</a>",
  "<span style=\"background-color: rgb(0, 128, 0)\">bg</span>", "<p style=\"text-align: right\">right</p>",
  "<span data-text-color=\"blue\">dc</span>", "<span data-background-color=\"yellow\">db</span>", "<p data-text-alignment=\"center\">dta</p>",
  "<table><thead><tr><th colspan=\"2\">h</th></tr></thead><tbody><tr><td rowspan=\"2\">r</td><td>c</td></tr></tbody></table>",
  "<ul data-type=\"taskList\"><li data-checked=\"true\">done</li></ul>", "<figure><img src=\"f.png\"><figcaption>cap</figcaption></figure>",
  "<pre><code class=\"language-js\">let a = 1 &lt; 2;\n</code></pre>", "<h1 data-level=\"2\">lvl</h1>", "<hr>", "<p>a<br>b</p>", "<code>&amp;amp;</code>",
  "<template><p>t</p></template>", "<math><mi>x</mi></math>", "<textarea><b>raw</b></textarea>", "<a href=\"javascript:alert(1)\">js</a>", "<p align=\"center\">c</p>",
];

export function generateMarkdown(seed: number, blocks = 12): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const word = () => pick(WORDS);

  function inline(depth = 0): string {
    const parts: string[] = [];
    const n = 1 + Math.floor(random() * 8);
    for (let i = 0; i < n; i += 1) {
      const r = random();
      const w = word();
      if (depth < 2 && r < 0.08) parts.push(`**${inline(depth + 1)}**`);
      else if (depth < 2 && r < 0.14) parts.push(`*${inline(depth + 1)}*`);
      else if (depth < 2 && r < 0.18) parts.push(`_${w}_`);
      else if (depth < 2 && r < 0.22) parts.push(`~~${inline(depth + 1)}~~`);
      else if (r < 0.27) parts.push(`\`${w}\``);
      else if (r < 0.31) parts.push(`[${w}](https://example.com/${encodeURIComponent(w)}${chance(0.3) ? ' "title"' : ""})`);
      else if (r < 0.33) parts.push(`![${w}](https://example.com/${seed}.png)`);
      else if (r < 0.35) parts.push(`<https://example.com/${seed}>`);
      else if (r < 0.38) parts.push(pick(HTML_SNIPPETS));
      else if (r < 0.4) parts.push(pick(["\\*", "\\_", "\\#", "\\[", "\\\\", "\\`", "\\|"]));
      else if (r < 0.42) parts.push(pick(["*", "_", "**", "~", "`", "[", "]", "(", "!", "<", ">", "&", "|", "\t", "  \n", "\\\n"]));
      else parts.push(w);
    }
    return parts.join(chance(0.1) ? "" : " ");
  }

  function list(indent: string, depth: number): string[] {
    const lines: string[] = [];
    const kind = pick(["- ", "* ", "+ ", "1. ", "3) ", "- [ ] ", "- [x] ", "* [X] "]);
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i += 1) {
      const marker = kind.replace(/^\d+/, String(i + 1)).replace("[ ]", chance(0.5) ? "[ ]" : "[x]");
      lines.push(`${indent}${marker}${inline()}`);
      if (chance(0.15)) lines.push(`${indent}${" ".repeat(marker.length)}${inline()}`);
      if (depth < 3 && chance(0.3)) lines.push(...list(indent + pick(["  ", "   ", "    ", "\t"]), depth + 1));
      if (chance(0.1)) lines.push("");
    }
    return lines;
  }

  function block(depth = 0): string {
    const r = random();
    if (r < 0.12) return `${"#".repeat(1 + Math.floor(random() * 7))} ${inline()}${chance(0.1) ? " ##" : ""}`;
    if (r < 0.3) return list("", 0).join("\n");
    if (r < 0.38 && depth < 3) return block(depth + 1).split("\n").map((line) => `>${chance(0.8) ? " " : ""}${line}`).join("\n");
    if (r < 0.46) {
      const fence = pick(["```", "~~~", "````"]);
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => (chance(0.2) ? "" : `${pick(["", "  ", "\t"])}${inline()}`));
      return `${fence}${pick(["", "ts", "python", "js title", " sh"])}\n${lines.join("\n")}\n${chance(0.9) ? fence : ""}`;
    }
    if (r < 0.5) return Array.from({ length: 1 + Math.floor(random() * 3) }, () => `    ${word()} ${word()}`).join("\n");
    if (r < 0.58) {
      const cols = 1 + Math.floor(random() * 4);
      const row = () => `| ${Array.from({ length: cols }, () => (chance(0.2) ? "" : inline(2))).join(" | ")} |`;
      const align = `|${Array.from({ length: cols }, () => pick([" --- ", ":---", "---:", ":-:"])).join("|")}|`;
      return [row(), align, ...Array.from({ length: Math.floor(random() * 4) }, row)].join("\n");
    }
    if (r < 0.61) return pick(["---", "***", "___", "- - -"]);
    if (r < 0.67) return pick(HTML_SNIPPETS) + (chance(0.5) ? `\n${inline()}` : "");
    if (r < 0.7) return `${inline()}\n${pick(["===", "---"])}`;
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () => inline()).join(chance(0.5) ? "\n" : "  \n");
  }

  const out: string[] = [];
  for (let i = 0; i < blocks; i += 1) out.push(block());
  return out.join(pick(["\n\n", "\n\n", "\n", "\n\n\n", "\r\n\r\n"]));
}
