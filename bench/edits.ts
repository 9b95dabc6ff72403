// A one-block targeted edit of a long note against a full-content PATCH of
// the same note making the same change, rounds interleaved in one run, and
// the first Markdown read after each.
import { paragraphBlock as paragraph } from "./generate";
import { percentile } from "./measure";
import { LIVE_CHECK_MS } from "@/lib/notes/editor-types";
import { benchJsonClient, type BenchStack } from "./stack";

export type EditsResult = {
  noteBlocks: number;
  /** Writes measured each way. */
  writes: number;
  patchP50: number;
  editP50: number;
  /** edit p50 / PATCH p50 (target ≤ 0.3). */
  editRatio: number;
  /** The write and the Markdown read after it, p50 each way. */
  patchReadP50: number;
  editReadP50: number;
  editReadRatio: number;
  /** An open editor tab's check for writes made elsewhere (a conditional GET answered 304) against reading the note. */
  live: { intervalMs: number; checksPerMinute: number; notModifiedBytes: number; checkP50: number; readP50: number; checkRatio: number };
};


const p50 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

export async function measureEdits(stack: BenchStack, options: { email: string; writes: number; log: (line: string) => void }): Promise<EditsResult> {
  const { email, writes, log } = options;
  const call = benchJsonClient(stack, email);
  const noteBlocks = 1000;
  let blocks = Array.from({ length: noteBlocks }, (_, i) => paragraph(`e${i}`, `Paragraph ${i} of a long note, with a sentence or two of ordinary text in it.`));
  const { note } = await call("/api/notes", "POST", { title: "Targeted edit bench", content: blocks });
  const notePath = `/api/notes/${note!.id}`;
  const markdownPath = `${notePath}?format=markdown`;
  const timed = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  const patch: number[] = [];
  const edit: number[] = [];
  const patchRead: number[] = [];
  const editRead: number[] = [];
  for (let step = 0; step < writes; step += 1) {
    const at = Math.floor(((step + 0.5) * noteBlocks) / writes);
    const text = `Rewritten paragraph ${at} in step ${step}.`;
    const viaPatch = async () => {
      blocks = blocks.map((block, index) => (index === at ? paragraph(block.id, `${text} (PATCH)`) : block));
      const write = await timed(() => call(notePath, "PATCH", { content: blocks }));
      patch.push(write);
      patchRead.push(write + (await timed(() => call(markdownPath, "GET"))));
    };
    const viaEdit = async () => {
      const id = blocks[at]!.id;
      blocks = blocks.map((block, index) => (index === at ? paragraph(block.id, `${text} (edit)`) : block));
      const operations = [{ op: "update_block", blockId: id, content: `${text} (edit)` }];
      const write = await timed(() => call(`${notePath}/edits`, "POST", { operations }));
      edit.push(write);
      editRead.push(write + (await timed(() => call(markdownPath, "GET"))));
    };
    // Alternate which goes first so drift and warm caches hit both alike.
    if (step % 2 === 0) {
      await viaPatch();
      await viaEdit();
    } else {
      await viaEdit();
      await viaPatch();
    }
  }
  const live = await measureLiveTab(stack, email, notePath, writes * 2);
  const result: EditsResult = {
    noteBlocks,
    writes,
    patchP50: p50(patch),
    editP50: p50(edit),
    editRatio: p50(edit) / p50(patch),
    patchReadP50: p50(patchRead),
    editReadP50: p50(editRead),
    editReadRatio: p50(editRead) / p50(patchRead),
    live,
  };
  log(`edits: one-block change of a ${noteBlocks}-block note: PATCH p50 ${result.patchP50.toFixed(1)} ms, targeted edit ${result.editP50.toFixed(1)} ms (${result.editRatio.toFixed(2)}×)`);
  return result;
}

/**
 * What an open tab costs while nobody writes: every LIVE_CHECK_MS it asks
 * `GET /api/notes/:id` with If-None-Match, answered 304 with headers only.
 * Measured against an unconditional read of the same note.
 */
async function measureLiveTab(stack: BenchStack, email: string, notePath: string, rounds: number): Promise<EditsResult["live"]> {
  const token = await stack.mintToken(email);
  const get = (headers: Record<string, string> = {}) => fetch(`${stack.appUrl}${notePath}`, { headers: { "x-session-token": token, ...headers } });
  const etag = (await get()).headers.get("etag")!;
  const check: number[] = [];
  const read: number[] = [];
  let notModifiedBytes = 0;
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    const answer = await get({ "if-none-match": etag });
    await answer.arrayBuffer();
    check.push(performance.now() - started);
    if (answer.status !== 304) throw new Error(`the live check answered ${answer.status}, not 304`);
    // Status line and headers, as on the wire (HTTP/1.1, no body).
    notModifiedBytes = "HTTP/1.1 304 Not Modified\r\n".length + [...answer.headers].reduce((sum, [name, value]) => sum + name.length + value.length + 4, 2);
    started = performance.now();
    await (await get()).arrayBuffer();
    read.push(performance.now() - started);
  }
  return {
    intervalMs: LIVE_CHECK_MS,
    checksPerMinute: 60_000 / LIVE_CHECK_MS,
    notModifiedBytes,
    checkP50: p50(check),
    readP50: p50(read),
    checkRatio: p50(check) / p50(read),
  };
}

export function renderEdits(result: EditsResult): string[] {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `Targeted edits: a one-block change of a ${result.noteBlocks.toLocaleString("en")}-block note, ${result.writes} times each way, interleaved: a targeted edit (\`POST /api/notes/:id/edits\`, \`update_block\`) took ${ms(result.editP50)} at p50 against ${ms(result.patchP50)} for a full-content PATCH, **${result.editRatio.toFixed(2)}×** (target ≤ 0.3× ${result.editRatio <= 0.3 ? "✓" : "✗"}).`,
    `An open editor tab while nobody writes: ${result.live.checksPerMinute} checks a minute (one every ${result.live.intervalMs / 1000} s, only while the tab is visible), each a conditional \`GET\` answered 304 with ${result.live.notModifiedBytes} bytes of headers (about ${((result.live.checksPerMinute * result.live.notModifiedBytes) / 1024).toFixed(1)} KiB a minute from the server); a check took ${ms(result.live.checkP50)} at p50 against ${ms(result.live.readP50)} for reading the ${result.noteBlocks.toLocaleString("en")}-block note, ${result.live.checkRatio.toFixed(2)}×.`,
    `With the Markdown read that follows each (\`?format=markdown\`): ${ms(result.editReadP50)} against ${ms(result.patchReadP50)}, ${result.editReadRatio.toFixed(2)}×.`,
  ];
}
