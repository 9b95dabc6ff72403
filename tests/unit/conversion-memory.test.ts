import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { realisticMarkdown } from "@/bench/markdown-notes";
import { warmConverter, runConversion } from "@/lib/body/conversions";

/** A full collection, taken as the conversion worker takes it (the flag only long enough to get the function). */
function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  v8.setFlagsFromString("--no-expose-gc");
  return gc;
}

const heapInUse = () => v8.getHeapStatistics().used_heap_size / 1024 / 1024;

describe("conversions in one worker", () => {
  it("keep nothing of a conversion once the next has run: the heap after a collection stays level", async () => {
    const collect = fullCollection();
    warmConverter();
    const convert = async (seed: number) => {
      const result = await runConversion({ kind: "markdown", markdown: realisticMarkdown(seed, 50_000) });
      expect(result.ok).toBe(true);
    };
    // The first conversion settles what stays for good (compiled code, the last document's caches).
    await convert(1);
    collect();
    const settled = heapInUse();
    for (let seed = 2; seed <= 6; seed += 1) await convert(seed);
    collect();
    // Keeping each conversion's document (a new one per call, as once happened)
    // added about 11 MB per 50 KB note here: 55 MB over these five.
    expect(heapInUse() - settled).toBeLessThan(15);
  });
});
