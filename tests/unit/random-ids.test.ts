import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { randomUuids, withBlockIds } from "@/components/editor/random-ids";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type TestBlock = { id?: string; type: string; children?: TestBlock[] };

const blockArb = fc.letrec<{ block: TestBlock }>((tie) => ({
  block: fc.record(
    { id: fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: undefined }), type: fc.constantFrom("paragraph", "heading"), children: fc.array(tie("block"), { maxLength: 3 }) },
    { requiredKeys: ["type"] },
  ),
})).block;

const walk = (blocks: readonly TestBlock[]): TestBlock[] => blocks.flatMap((block) => [block, ...walk(block.children ?? [])]);
/** The blocks with every id taken out: what must stay the same. */
const shape = (blocks: readonly TestBlock[]): unknown => blocks.map(({ id: _id, children, ...rest }) => ({ ...rest, ...(children ? { children: shape(children) } : {}) }));

describe("randomUuids", () => {
  it("gives that many distinct version 4 UUIDs", () => {
    const ids = randomUuids(2000);
    expect(ids).toHaveLength(2000);
    expect(new Set(ids).size).toBe(2000);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});

describe("withBlockIds", () => {
  it("gives each block without an id a new one, unique, and changes nothing else", () => {
    fc.assert(
      fc.property(fc.array(blockArb, { maxLength: 6 }), (blocks) => {
        const before = structuredClone(blocks);
        const given = withBlockIds(blocks);
        expect(blocks, "the input is not changed").toEqual(before);
        expect(shape(given)).toEqual(shape(blocks));
        const [was, now] = [walk(blocks), walk(given)];
        const fresh = now.filter((block, i) => was[i]!.id === undefined).map((block) => block.id!);
        for (const [i, block] of now.entries()) if (was[i]!.id !== undefined) expect(block.id).toBe(was[i]!.id);
        for (const id of fresh) expect(id).toMatch(UUID_V4);
        expect(new Set(fresh).size).toBe(fresh.length);
      }),
    );
  });

  it("keeps a block that has its id, and all of its children theirs, as the same object", () => {
    const kept = { id: "k", type: "paragraph", children: [{ id: "c", type: "paragraph" }] };
    const given = withBlockIds<TestBlock>([kept, { type: "paragraph" }]);
    expect(given[0]).toBe(kept);
    expect(given[1]!.id).toMatch(UUID_V4);
  });
});
