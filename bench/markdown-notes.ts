import { buildVocabulary, seededRandom } from "./generate";

/**
 * A realistic long Markdown note of about `size` characters: meeting notes
 * with headings, paragraphs with emphasis and links, bullet and numbered
 * lists (some nested), checklists, a small table and a code block per section.
 */
export function realisticMarkdown(seed: number, size = 100_000): string {
  const random = seededRandom(seed);
  const words = buildVocabulary(seededRandom(7), 800);
  const word = () => words[Math.floor(random() * words.length)]!;
  const sentence = (n = 8 + Math.floor(random() * 14)) => {
    const parts = Array.from({ length: n }, () => {
      const w = word();
      const r = random();
      if (r < 0.04) return `**${w}**`;
      if (r < 0.07) return `*${w}*`;
      if (r < 0.09) return `\`${w}\``;
      if (r < 0.1) return `[${w}](https://example.com/${w})`;
      return w;
    });
    const text = parts.join(" ");
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const sections: string[] = [];
  let length = 0;
  for (let s = 0; length < size; s += 1) {
    const lines: string[] = [`## ${sentence(4).slice(0, -1)} ${s + 1}`, ""];
    for (let p = 0; p < 3; p += 1) lines.push(`${sentence()} ${sentence()} ${sentence()}`, "");
    for (let i = 0; i < 5; i += 1) {
      lines.push(`- ${sentence(6)}`);
      if (random() < 0.3) lines.push(`  - ${sentence(5)}`);
    }
    lines.push("");
    for (let i = 1; i <= 3; i += 1) lines.push(`${i}. ${sentence(7)}`);
    lines.push("");
    for (let i = 0; i < 3; i += 1) lines.push(`- [${random() < 0.5 ? "x" : " "}] ${sentence(5)}`);
    lines.push("", "| owner | task | due |", "| --- | --- | --- |");
    for (let i = 0; i < 4; i += 1) lines.push(`| ${word()} | ${sentence(4).slice(0, -1)} | ${1 + Math.floor(random() * 28)} May |`);
    lines.push("");
    if (s % 2 === 0) lines.push("```ts", `const ${word()} = await fetch("/api/${word()}");`, `console.log(${word()});`, "```", "");
    lines.push(`> ${sentence()}`, "");
    const section = lines.join("\n");
    sections.push(section);
    length += section.length + 1;
  }
  return sections.join("\n").slice(0, size).replace(/\n[^\n]*$/, "\n");
}
