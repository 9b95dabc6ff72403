import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyBlockOps, mergeBody, propDefaultsOf, type MergeBlock } from "@/lib/body/merge";
import { noteSchema } from "@/lib/body/schema";

const noteBlockDefaults = propDefaultsOf(noteSchema.blockSchema);

const p = (id: string, text: string, children?: MergeBlock[]): MergeBlock => ({
  id,
  type: "paragraph",
  props: { textColor: "default", backgroundColor: "default", textAlignment: "left" },
  content: [{ type: "text", text, styles: {} }],
  ...(children ? { children } : {}),
});
const text = (blocks: MergeBlock[]): string[] =>
  blocks.flatMap((block) => [`${block.id}:${(block.content as { text: string }[]).map((run) => run.text).join("")}`, ...text(block.children ?? []).map((line) => `  ${line}`)]);
const merge = (base: MergeBlock[], mine: MergeBlock[], theirs: MergeBlock[]) => {
  const result = mergeBody(base, mine, theirs, noteBlockDefaults);
  if (!result) throw new Error("not mergeable");
  return result;
};

describe("merging a note's body block by block", () => {
  const base = [p("a", "Alpha"), p("b", "Bravo"), p("c", "Charlie")];

  it("takes their change to a block the person did not touch and keeps the person's typing in another", () => {
    const mine = [p("a", "Alpha, typed here"), p("b", "Bravo"), p("c", "Charlie")];
    const theirs = [p("a", "Alpha"), p("b", "Bravo"), p("c", "Charlie (agent)"), p("d", "Delta from the agent")];
    const result = merge(base, mine, theirs);
    expect(result.conflicts).toEqual([]);
    expect(text(result.merged)).toEqual(["a:Alpha, typed here", "b:Bravo", "c:Charlie (agent)", "d:Delta from the agent"]);
    // Nothing touches the block being typed in.
    expect(result.ops.some((op) => "id" in op && op.id === "a")).toBe(false);
  });

  it("keeps the person's version of a block both changed and reports theirs beside it", () => {
    const mine = [p("a", "Alpha"), p("b", "Bravo, mine"), p("c", "Charlie")];
    const theirs = [p("a", "Alpha"), p("b", "Bravo, theirs"), p("c", "Charlie")];
    const result = merge(base, mine, theirs);
    expect(text(result.merged)).toEqual(["a:Alpha", "b:Bravo, mine", "c:Charlie"]);
    expect(result.conflicts).toEqual([{ kind: "both", id: "b", mine: mine[1], theirs: theirs[1] }]);
  });

  it("deletes what they deleted, unless the person changed it; a block the person deleted and they changed is offered back", () => {
    const mine = [p("a", "Alpha, mine"), p("c", "Charlie")];
    const theirs = [p("b", "Bravo, theirs"), p("c", "Charlie")];
    const result = merge(base, mine, theirs);
    expect(text(result.merged)).toEqual(["a:Alpha, mine", "c:Charlie"]);
    expect(result.conflicts.map((conflict) => [conflict.kind, conflict.id])).toEqual([
      ["theirs_deleted", "a"],
      ["mine_deleted", "b"],
    ]);
    const unchangedMine = merge(base, base, [p("c", "Charlie")]);
    expect(text(unchangedMine.merged)).toEqual(["c:Charlie"]);
  });

  it("applies their moves where the person kept the order, with one move for one block", () => {
    const theirs = [p("b", "Bravo"), p("c", "Charlie"), p("a", "Alpha")];
    const mine = [p("a", "Alpha"), p("b", "Bravo, mine"), p("c", "Charlie"), p("m", "Mine, new")];
    const result = merge(base, mine, theirs);
    expect(result.ops).toEqual([{ op: "move", id: "a", place: { after: "c" } }]);
    expect(text(result.merged)).toEqual(["b:Bravo, mine", "c:Charlie", "a:Alpha", "m:Mine, new"]);
  });

  it("merges inside nested blocks and moves a block into another parent", () => {
    const nestedBase = [p("a", "List", [p("a1", "One"), p("a2", "Two")]), p("b", "Bravo")];
    const mine = [p("a", "List", [p("a1", "One, mine"), p("a2", "Two")]), p("b", "Bravo")];
    const theirs = [p("a", "List", [p("a1", "One"), p("a2", "Two"), p("b", "Bravo")]), p("n", "New")];
    const result = merge(nestedBase, mine, theirs);
    expect(text(result.merged)).toEqual(["a:List", "  a1:One, mine", "  a2:Two", "  b:Bravo", "n:New"]);
    expect(result.conflicts).toEqual([]);
  });

  it("treats props at their defaults and plain-string content as the same block", () => {
    const sparse = [{ id: "a", type: "paragraph", content: "Alpha" }, p("b", "Bravo")];
    const mine = [p("a", "Alpha"), p("b", "Bravo, mine")];
    const theirs = [{ id: "a", type: "paragraph", content: "Alpha (agent)" }, p("b", "Bravo")];
    const result = merge(sparse, mine, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.ops).toEqual([{ op: "update", id: "a", block: { type: "paragraph", content: "Alpha (agent)" } }]);
  });

  it("declines bodies it cannot match block by block", () => {
    expect(mergeBody([{ type: "paragraph", content: "no id" }], base, base, noteBlockDefaults)).toBeNull();
    expect(mergeBody(base, base, [p("a", "A"), p("a", "again")], noteBlockDefaults)).toBeNull();
    // They wrapped a block the person still has into a new one.
    expect(mergeBody(base, base, [p("w", "Wrapper", [p("a", "Alpha")]), p("b", "Bravo"), p("c", "Charlie")], noteBlockDefaults)).toBeNull();
  });

  // Random edits on each side, of distinct blocks: nothing either side did is lost.
  it("keeps every change of both sides when they touch different blocks", () => {
    const ids = ["a", "b", "c", "d", "e", "f"];
    const start = ids.map((id) => p(id, id.toUpperCase()));
    const edits = fc.array(fc.record({ index: fc.nat({ max: 5 }), kind: fc.constantFrom("edit", "delete", "add") }), { maxLength: 4 });
    fc.assert(
      fc.property(edits, edits, (mineEdits, theirEdits) => {
        const apply = (side: string, list: typeof mineEdits, owned: (index: number) => boolean) => {
          let blocks = start.map((block) => ({ ...block }));
          for (const [n, edit] of list.entries()) {
            const target = start[edit.index]!;
            if (!owned(edit.index) || !blocks.some((block) => block.id === target.id)) continue;
            if (edit.kind === "edit") blocks = blocks.map((block) => (block.id === target.id ? p(block.id, `${side} ${n}`) : block));
            else if (edit.kind === "delete") blocks = blocks.filter((block) => block.id !== target.id);
            else blocks.splice(blocks.findIndex((block) => block.id === target.id) + 1, 0, p(`${side}${n}`, `${side} added ${n}`));
          }
          return blocks;
        };
        // The person edits the first three blocks, they the last three.
        const mine = apply("mine", mineEdits, (index) => index < 3);
        const theirs = apply("theirs", theirEdits, (index) => index >= 3);
        const result = merge(start, mine, theirs);
        expect(result.conflicts).toEqual([]);
        const merged = text(result.merged);
        for (const line of [...text(mine).filter((l) => /^[a-c]:|^mine/.test(l)), ...text(theirs).filter((l) => /^[d-f]:|^theirs/.test(l))]) expect(merged).toContain(line);
        expect(merged).toHaveLength(new Set(merged).size);
        expect(applyBlockOps(mine, result.ops)).toEqual(result.merged);
      }),
    );
  });
});
