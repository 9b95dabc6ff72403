// The cost of note history: a write with revisions on against the same write
// with the revision trigger switched off, in one run, and the storage a
// one-block edit of a long note, and a one-word edit of a long plain-text
// note, adds.
import type pg from "pg";
import { paragraphBlock as paragraph } from "./generate";
import { percentile } from "./measure";
import { benchJsonClient, type BenchStack } from "./stack";

export type HistoryResult = {
  /** PATCHes measured each way. */
  writes: number;
  p50On: number;
  p50Off: number;
  /** p50 with revisions / p50 without (target ≤ 1.3). */
  writeRatio: number;
  noteBlocks: number;
  /** The long note's content as JSON text, and as PostgreSQL stores it (compressed). */
  noteJsonBytes: number;
  noteStoredBytes: number;
  /** Stored size of one revision of a one-block edit, on average over `edits`. */
  revisionBytes: number;
  edits: number;
  /** The note's first revision holds all of it; one such keyframe follows every 100 changes. */
  keyframeBytes: number;
  /** A note with text and no blocks: its text's length in bytes, and the stored size of one revision of a one-word edit, on average. */
  plainTextBytes: number;
  plainRevisionBytes: number;
};


/** Revisions are recorded by this trigger (see the note_revisions migration); the benchmark switches it to compare. */
const setHistory = (pool: pg.Pool, on: boolean) => pool.query(`ALTER TABLE notes ${on ? "ENABLE" : "DISABLE"} TRIGGER notes_revision_update`);

export async function measureHistory(
  stack: BenchStack,
  pool: pg.Pool,
  options: { email: string; writes: number; edits: number; log: (line: string) => void },
): Promise<HistoryResult> {
  const { email, writes, edits, log } = options;
  const call = benchJsonClient(stack, email);

  // Write latency: a one-block PATCH of a short note, rounds with history on and off interleaved so drift hits both.
  const blocks = Array.from({ length: 5 }, (_, i) => paragraph(`s${i}`, `Short note paragraph ${i}.`));
  const { note } = await call("/api/notes", "POST", { title: "History bench", content: blocks });
  const latencies = { on: [] as number[], off: [] as number[] };
  const rounds = 4;
  let step = 0;
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const on of [true, false]) {
        await setHistory(pool, on);
        for (let i = 0; i < Math.ceil(writes / rounds); i += 1) {
          step += 1;
          const content = blocks.map((block, index) => (index === step % blocks.length ? paragraph(block.id, `Edited ${step}.`) : block));
          const started = performance.now();
          await call(`/api/notes/${note!.id}`, "PATCH", { content });
          (on ? latencies.on : latencies.off).push(performance.now() - started);
        }
      }
    }
  } finally {
    await setHistory(pool, true);
  }
  const p50 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
  const p50On = p50(latencies.on);
  const p50Off = p50(latencies.off);
  log(`history: one-block PATCH p50 ${p50On.toFixed(2)} ms with revisions, ${p50Off.toFixed(2)} ms without`);

  // Storage: one-block edits of a 1,000-block note.
  const noteBlocks = 1000;
  let long = Array.from({ length: noteBlocks }, (_, i) => paragraph(`b${i}`, `Paragraph ${i} of a long note, with a sentence or two of ordinary text in it.`));
  const created = await call("/api/notes", "POST", { title: "Long history bench", content: long });
  const longId = created.note!.id;
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(((edit + 0.5) * noteBlocks) / edits);
    long = long.map((block, index) => (index === at ? paragraph(block.id, `Rewritten paragraph ${index} in edit ${edit}.`) : block));
    await call(`/api/notes/${longId}`, "PATCH", { content: long });
  }
  const sizes = await pool.query<{ json_bytes: number; stored_bytes: number; revision_bytes: number; edits: number; keyframe_bytes: number }>(
    `SELECT octet_length(n.content::text)::int AS json_bytes, pg_column_size(n.content)::int AS stored_bytes,
            (SELECT avg(pg_column_size(r.*))::int FROM note_revisions r WHERE r.note_id = n.id AND NOT r.keyframe) AS revision_bytes,
            (SELECT count(*)::int FROM note_revisions r WHERE r.note_id = n.id AND NOT r.keyframe) AS edits,
            (SELECT pg_column_size(r.*)::int FROM note_revisions r WHERE r.note_id = n.id AND r.keyframe ORDER BY r.version LIMIT 1) AS keyframe_bytes
     FROM notes n WHERE n.id = $1`,
    [longId],
  );
  const row = sizes.rows[0]!;
  log(`history: a one-block edit of a ${noteBlocks}-block note (${row.json_bytes} B of JSON) stores ${row.revision_bytes} B`);

  // Storage: one-word edits of a plain-text note of about 100 KB (text, no blocks), words varied so it compresses as prose does.
  let seed = 7;
  const nextWord = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return `w${(seed % 50_000).toString(36)}`;
  };
  const lines = Array.from({ length: 1600 }, () => Array.from({ length: 12 }, nextWord).join(" "));
  let text = lines.join("\n");
  const plain = await call("/api/notes", "POST", { title: "Plain history bench", contentText: text });
  const plainId = plain.note!.id;
  for (let edit = 0; edit < edits; edit += 1) {
    const at = text.indexOf(" ", Math.floor(((edit + 0.5) * text.length) / edits)) + 1;
    text = `${text.slice(0, at)}edited${edit}${text.slice(text.indexOf(" ", at))}`;
    await call(`/api/notes/${plainId}`, "PATCH", { contentText: text });
  }
  const plainSizes = await pool.query<{ text_bytes: number; revision_bytes: number }>(
    `SELECT octet_length(n.content_text)::int AS text_bytes,
            (SELECT avg(pg_column_size(r.*))::int FROM note_revisions r WHERE r.note_id = n.id AND NOT r.keyframe) AS revision_bytes
     FROM notes n WHERE n.id = $1`,
    [plainId],
  );
  const plainRow = plainSizes.rows[0]!;
  log(`history: a one-word edit of a plain-text note (${plainRow.text_bytes} B of text) stores ${plainRow.revision_bytes} B`);
  return {
    writes: latencies.on.length,
    p50On,
    p50Off,
    writeRatio: p50On / p50Off,
    noteBlocks,
    noteJsonBytes: row.json_bytes,
    noteStoredBytes: row.stored_bytes,
    revisionBytes: row.revision_bytes,
    edits: row.edits,
    keyframeBytes: row.keyframe_bytes,
    plainTextBytes: plainRow.text_bytes,
    plainRevisionBytes: plainRow.revision_bytes,
  };
}

export function renderHistory(result: HistoryResult): string[] {
  const share = (bytes: number) => `${((bytes / result.noteJsonBytes) * 100).toFixed(2)}%`;
  const amortised = result.revisionBytes + result.keyframeBytes / 100;
  return [
    `History: a one-block PATCH of a 5-block note, ${result.writes} sequential writes each way, interleaved: p50 ${result.p50On.toFixed(2)} ms with revisions, ${result.p50Off.toFixed(2)} ms with the revision trigger off, **${result.writeRatio.toFixed(2)}×** (target ≤ 1.3× ${result.writeRatio <= 1.3 ? "✓" : "✗"}).`,
    `Storage: a one-block edit of a ${result.noteBlocks.toLocaleString("en")}-block note (${result.noteJsonBytes.toLocaleString("en")} B as JSON, ${result.noteStoredBytes.toLocaleString("en")} B stored) adds ${result.revisionBytes.toLocaleString("en")} B per revision (mean of ${result.edits}), **${share(result.revisionBytes)}** of the note (target ≤ 2% ${result.revisionBytes <= 0.02 * result.noteJsonBytes ? "✓" : "✗"}); with its share of a keyframe (${result.keyframeBytes.toLocaleString("en")} B, one per 100 changes) ${Math.round(amortised).toLocaleString("en")} B, ${share(amortised)}.`,
    `Storage: a one-word edit of a plain-text note (${result.plainTextBytes.toLocaleString("en")} B of text, no blocks) adds ${result.plainRevisionBytes.toLocaleString("en")} B per revision, **${((result.plainRevisionBytes / result.plainTextBytes) * 100).toFixed(2)}%** of the text (target ≤ 2% ${result.plainRevisionBytes <= 0.02 * result.plainTextBytes ? "✓" : "✗"}).`,
  ];
}
