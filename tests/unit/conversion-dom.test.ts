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

describe("the conversion worker's DOM", () => {
  it("converts as JSDOM does, byte for byte: Markdown to blocks, blocks to Markdown, block by block", async () => {
    // Both at once, each in its own thread: BlockNote keeps the first document it is given.
    const [light, jsdom] = await Promise.all([answersIn("light", 250), answersIn("jsdom", 250)]);
    expect(light.map((entry) => entry.name)).toEqual(jsdom.map((entry) => entry.name));
    expect(light.length).toBeGreaterThan(700);
    const differing = light.filter((entry, i) => entry.answer !== jsdom[i]!.answer);
    for (const entry of differing.slice(0, 1)) {
      const i = light.indexOf(entry);
      expect.soft(entry.answer, entry.name).toBe(jsdom[i]!.answer);
    }
    expect(differing.map((entry) => entry.name)).toEqual([]);
    // The corpus reaches what the DOM decides: failures and refusals as well as conversions.
    expect(jsdom.some((entry) => entry.answer.includes('"ok":false') || entry.answer.includes('"threw"'))).toBe(true);
  });
});
