/**
 * Runs every conversion the worker does over a corpus, in one DOM, and returns
 * the answers as JSON text (block ids left out: BlockNote makes new ones on
 * each parse). Run in a worker thread of its own per DOM
 * (conversion-corpus-worker.mjs): BlockNote keeps the first document it is
 * given for the life of its module.
 */
import { realisticMarkdown } from "../../bench/markdown-notes";
import { loadConverter, runConversion, type ConversionTask, type Dom } from "../../lib/editor/conversions";
import { generateMarkdown } from "./markdown-corpus";
import { richNotes } from "./rich-notes";

export type CorpusAnswer = { name: string; answer: string };

export async function convertCorpus(dom: "jsdom" | "light", seeds: number): Promise<CorpusAnswer[]> {
  const jsdom = async (): Promise<Dom> => {
    const { JSDOM } = await import("jsdom");
    const { window } = new JSDOM();
    return { window, document: window.document };
  };
  await loadConverter(dom === "jsdom" ? jsdom : undefined);
  const withoutIds = (value: unknown) => JSON.stringify(value, (key, item: unknown) => (key === "id" ? undefined : item));
  const run = async (task: ConversionTask) => {
    try {
      return await runConversion(task);
    } catch (err) {
      return { threw: String(err) };
    }
  };
  const answers: CorpusAnswer[] = [];
  const markdownInputs: [string, string][] = Array.from({ length: seeds }, (_, i) => [`generated Markdown, seed ${i + 1}`, generateMarkdown(i + 1, 4 + ((i + 1) % 20))]);
  markdownInputs.push(["a realistic 20 KB note", realisticMarkdown(1, 20_000)]);
  for (const [name, markdown] of markdownInputs) {
    const parsed = await run({ kind: "markdown", markdown });
    answers.push({ name, answer: withoutIds(parsed) });
    if ("content" in parsed && parsed.content !== undefined) {
      // The blocks back: as the API's JSON body and block by block.
      answers.push({ name: `${name}, its blocks as Markdown`, answer: withoutIds(await run({ kind: "content", content: parsed.content })) });
      answers.push({ name: `${name}, block by block`, answer: withoutIds(await run({ kind: "block-markdown", content: parsed.content })) });
    }
  }
  for (const note of richNotes()) {
    answers.push({ name: `the editor's note "${note.title}"`, answer: withoutIds(await run({ kind: "content", content: note.content })) });
    answers.push({ name: `the editor's note "${note.title}", block by block`, answer: withoutIds(await run({ kind: "block-markdown", content: note.content })) });
  }
  return answers;
}
