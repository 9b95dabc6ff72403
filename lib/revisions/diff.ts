import { diffArrays } from "diff";
import { contentToText } from "@/lib/editor/content-text";

/** One line of a readable comparison, or a run of unchanged lines left out. */
export type ChangeLine = { kind: "same" | "removed" | "added"; text: string } | { kind: "skipped"; count: number };

/**
 * How a note's text differs between two states, line by line (a block is a
 * line, as in contentText): lines only in `before` are removed, lines only in
 * `after` added, and unchanged lines more than `context` away from a change
 * are folded into one "skipped" entry. The title is the first line when it
 * changed.
 */
export function noteChanges(
  before: { title: string; content: unknown; contentText: string },
  after: { title: string; content: unknown; contentText: string },
  context = 2,
): ChangeLine[] {
  const lines = (state: typeof before) => {
    const text = Array.isArray(state.content) && state.content.length > 0 ? contentToText(state.content) : state.contentText;
    return text === "" ? [] : text.split("\n");
  };
  const changes: Exclude<ChangeLine, { kind: "skipped" }>[] = [];
  if (before.title !== after.title) {
    changes.push({ kind: "removed", text: `Title: ${before.title}` }, { kind: "added", text: `Title: ${after.title}` });
  }
  for (const part of diffArrays(lines(before), lines(after))) {
    const kind = part.removed ? "removed" : part.added ? "added" : "same";
    for (const text of part.value) changes.push({ kind, text });
  }
  const near = changes.map((_, index) => changes.slice(Math.max(0, index - context), index + context + 1).some((line) => line.kind !== "same"));
  const shown: ChangeLine[] = [];
  changes.forEach((line, index) => {
    if (near[index]) {
      shown.push(line);
      return;
    }
    const last = shown.at(-1);
    if (last?.kind === "skipped") last.count += 1;
    else shown.push({ kind: "skipped", count: 1 });
  });
  return shown;
}
