import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { CorpusAnswer } from "@/tests/helpers/conversion-corpus";

/** The corpus's answers in one DOM, from a worker thread of its own. */
function answersIn(dom: "jsdom" | "light", seeds: number): Promise<CorpusAnswer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("../helpers/conversion-corpus-worker.mjs", import.meta.url), { workerData: { dom, seeds } });
    worker.once("message", (answers: CorpusAnswer[]) => {
      resolve(answers);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`corpus worker (${dom}) exited with ${code}`)));
  });
}

const SEEDS = 250;

describe("the conversion worker's DOM", () => {
  it("converts as JSDOM does, byte for byte: Markdown to blocks, blocks to Markdown, block by block", async () => {
    // Both at once, each in its own thread: BlockNote keeps the first document it is given.
    const [light, jsdom] = await Promise.all([answersIn("light", SEEDS), answersIn("jsdom", SEEDS)]);
    expect(light.map((entry) => entry.name)).toEqual(jsdom.map((entry) => entry.name));
    // Every input answered, and most converted, so their blocks went back the other way too.
    const inputs = SEEDS + 1;
    expect(light.length).toBeGreaterThanOrEqual(inputs);
    expect(light.filter((entry) => entry.name.endsWith(", its blocks as Markdown")).length).toBeGreaterThan(inputs / 2);
    const differing = light.flatMap((entry, i) => (entry.answer === jsdom[i]!.answer ? [] : [{ ...entry, expected: jsdom[i]!.answer }]));
    // The first difference in full, then the names of all.
    if (differing[0]) expect.soft(differing[0].answer, differing[0].name).toBe(differing[0].expected);
    expect(differing.map((entry) => entry.name)).toEqual([]);
    // The corpus reaches what the DOM decides: failures and refusals as well as conversions.
    expect(jsdom.some((entry) => entry.answer.includes('"ok":false') || entry.answer.includes('"threw"'))).toBe(true);
  });
});
