// npm run -s bench:soak -- [--db embedded|pglite|postgres] [--duration 60m] [--writers 4] [--interval 60s] [--pool 10] [--skip-build] [--build-dir .next]
// Runs the hostile mix against the production server for a long time: clients
// post 100 KB Markdown notes (one in ten a pathological one) and delete them,
// while others read a small note and notes as Markdown. Reports, per interval
// and overall, read latency, answers by status, errors and the server's RSS.
import { buildBenchApp } from "./build-app";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { HOSTILE_MARKDOWN } from "@/bench/hostile-content";
import { summarizeLatencies, type LatencySummary } from "./hostile";
import { loadBenchData, type LoadedUser, type Sql } from "./load";
import { realisticMarkdown } from "./markdown-notes";
import { createBenchDatabase, DEFAULT_ADMIN_URL } from "./database";
import { startBenchStack } from "./stack";
import { startEmbeddedPostgres } from "@/scripts/lib/embedded-postgres";
import { pssMb } from "@/scripts/lib/processes";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "embedded" },
    "admin-url": { type: "string", default: DEFAULT_ADMIN_URL },
    duration: { type: "string", default: "10m" },
    interval: { type: "string", default: "60s" },
    writers: { type: "string", default: "4" },
    readers: { type: "string", default: "2" },
    // The app's database connections; the app's own default (DATABASE_POOL_MAX) unless given.
    pool: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "build-dir": { type: "string", default: ".next-bench" },
    out: { type: "string", default: "bench/results" },
  },
});

/** "90s", "60m", "1h" or plain seconds. */
function seconds(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`Not a duration: ${text}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? "s") as "s" | "m" | "h"];
}

const durationSec = seconds(args.duration);
const intervalSec = seconds(args.interval);
const writers = Number(args.writers);
const readers = Number(args.readers);
const EMAIL = "soak@example.com";
const log = (line: string) => process.stdout.write(`[soak] ${line}\n`);

type Window = { reads: number[]; readFailures: number; markdownReads: number[]; statuses: Record<string, number>; hostileStatuses: Record<string, number> };
type IntervalReport = { atSec: number; reads: LatencySummary; markdownReads: LatencySummary; statuses: Record<string, number>; hostileStatuses: Record<string, number>; rssMb: number; appMb: number };

const emptyWindow = (): Window => ({ reads: [], readFailures: 0, markdownReads: [], statuses: {}, hostileStatuses: {} });
const count = (into: Record<string, number>, key: number) => (into[key] = (into[key] ?? 0) + 1);

const LOAD = { users: [{ email: EMAIL, notes: 200 }], totalNotes: 200, seed: 4242 };

type SoakDatabase = { databaseUrl: string; user: LoadedUser; drop(): Promise<void> };

/** PGlite in the work directory, migrated and loaded. */
async function pgliteDatabase(workDir: string): Promise<SoakDatabase> {
  const dataDir = path.join(workDir, "pglite");
  const pglite = await openPglite(dataDir);
  await migrateDatabase({ pglite });
  const sql: Sql = { query: async (text, params) => ({ rows: (await pglite.query(text, params)).rows as never[] }) };
  const [user] = await loadBenchData(sql, LOAD, log);
  await pglite.close();
  return { databaseUrl: `pglite:${dataDir}`, user: user!, drop: async () => undefined };
}

/** A PostgreSQL database of the soak's own, created from `adminUrl`, migrated and loaded; dropped at the end. */
async function postgresDatabase(adminUrl: string): Promise<SoakDatabase> {
  const database = await createBenchDatabase(adminUrl, `notes_soak_${process.pid}`);
  await migrateDatabase({ postgresUrl: database.url });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on("error", () => undefined);
  try {
    const [user] = await loadBenchData(pool, LOAD, log);
    return { databaseUrl: database.url, user: user!, drop: database.drop };
  } finally {
    await pool.end();
  }
}

async function main(): Promise<number> {
  if (!["embedded", "pglite", "postgres"].includes(args.db)) throw new Error(`--db is embedded, pglite or postgres, not ${args.db}`);
  await buildBenchApp(args["build-dir"], Boolean(args["skip-build"]), log);
  const workDir = mkdtempSync(path.join(os.tmpdir(), "notes-soak-"));
  // Run as root, the embedded server runs as the postgres user, which must reach its folder.
  chmodSync(workDir, 0o755);
  // The embedded server as npm run dev starts it; the RSS reported is then the app's plus the server's PSS.
  const embedded = args.db === "embedded" ? await startEmbeddedPostgres({ dir: path.join(workDir, "postgres"), database: "postgres", log }) : undefined;
  const database = args.db === "pglite" ? await pgliteDatabase(workDir) : await postgresDatabase(embedded?.url ?? args["admin-url"]);
  const user = database.user;
  const stack = await startBenchStack({ databaseUrl: database.databaseUrl, workDir, emails: [EMAIL], poolMax: args.pool === undefined ? null : Number(args.pool) });
  const startedAt = new Date();
  let token = await stack.mintToken(EMAIL);
  const headers = () => ({ "x-session-token": token, "content-type": "application/json" });
  const started = performance.now();
  let deadline = started + durationSec * 1000;
  const done = () => performance.now() > deadline;
  // Interrupted: finish the requests in flight, report, and stop the servers.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => (deadline = 0));
  let window = emptyWindow();
  const intervals: IntervalReport[] = [];
  const all = emptyWindow();
  let serverDied = false;

  const small = await fetch(`${stack.appUrl}/api/notes`, { method: "POST", headers: headers(), body: JSON.stringify({ title: "Small", contentMarkdown: "A *small* note." }) });
  const smallId = ((await small.json()) as { note: { id: string } }).note.id;
  const markdownIds = user.noteIds.slice(0, 50);

  // Session tokens live five minutes.
  const refresher = setInterval(() => {
    stack.mintToken(EMAIL).then((fresh) => (token = fresh), () => log("could not refresh the session token"));
  }, 60_000);
  const reporter = setInterval(() => {
    const report: IntervalReport = {
      atSec: Math.round((performance.now() - started) / 1000),
      reads: summarizeLatencies(window.reads, window.readFailures),
      markdownReads: summarizeLatencies(window.markdownReads, 0),
      statuses: window.statuses,
      hostileStatuses: window.hostileStatuses,
      rssMb: 0,
      appMb: Math.round(stack.appRssMb() * 10) / 10,
    };
    report.rssMb = Math.round((report.appMb + (embedded ? pssMb(embedded.pid) : 0)) * 10) / 10;
    if (report.rssMb === 0) serverDied = true;
    intervals.push(report);
    window = emptyWindow();
    log(
      `${report.atSec}s: small-note read p50 ${report.reads.p50} ms p99 ${report.reads.p99} ms (${report.reads.requests} ok, ${report.reads.failures} failed); ` +
        `Markdown read p99 ${report.markdownReads.p99} ms; writes ${JSON.stringify(report.statuses)}; hostile ${JSON.stringify(report.hostileStatuses)}; RSS ${report.rssMb} MB${embedded ? ` (the app ${report.appMb} MB, the database server the rest)` : ""}`,
    );
  }, intervalSec * 1000);

  const read = async (url: string, into: number[]) => {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { headers: { "x-session-token": token } });
      await res.arrayBuffer();
      if (res.ok) return void into.push(performance.now() - t0);
    } catch {
      // counted below
    }
    window.readFailures += 1;
    all.readFailures += 1;
  };
  const readLoop = async () => {
    while (!done()) {
      const into: number[] = [];
      await read(`${stack.appUrl}/api/notes/${smallId}`, into);
      window.reads.push(...into);
      all.reads.push(...into);
    }
  };
  const markdownLoop = async () => {
    for (let i = 0; !done(); i += 1) {
      const into: number[] = [];
      await read(`${stack.appUrl}/api/notes/${markdownIds[i % markdownIds.length]}?format=markdown`, into);
      window.markdownReads.push(...into);
      all.markdownReads.push(...into);
    }
  };
  const hostile = Object.values(HOSTILE_MARKDOWN);
  const writeLoop = async (writer: number) => {
    for (let i = 0; !done(); i += 1) {
      const pathological = i % 10 === 9;
      const contentMarkdown = pathological ? hostile[(writer + i) % hostile.length]! : realisticMarkdown(writer * 100_000 + i);
      let status = 0;
      try {
        const res = await fetch(`${stack.appUrl}/api/notes`, { method: "POST", headers: headers(), body: JSON.stringify({ title: `Soak ${writer}-${i}`, contentMarkdown }) });
        status = res.status;
        const json = (await res.json().catch(() => null)) as { note?: { id: string } } | null;
        if (json?.note) await (await fetch(`${stack.appUrl}/api/notes/${json.note.id}`, { method: "DELETE", headers: headers() })).arrayBuffer();
      } catch {
        status = 0;
      }
      count(pathological ? window.hostileStatuses : window.statuses, status);
      count(pathological ? all.hostileStatuses : all.statuses, status);
    }
  };

  // The loaded notes predate stored Markdown: render each once, before the clock starts.
  for (const id of markdownIds) await (await fetch(`${stack.appUrl}/api/notes/${id}?format=markdown`, { headers: { "x-session-token": token } })).arrayBuffer();
  log(`running ${durationSec} s: ${readers} readers of a small note, one reader of notes as Markdown, ${writers} writers (one write in ten pathological), reporting every ${intervalSec} s`);
  try {
    await Promise.all([
      ...Array.from({ length: readers }, () => readLoop()),
      markdownLoop(),
      ...Array.from({ length: writers }, (_, w) => writeLoop(w)),
    ]);
  } finally {
    clearInterval(refresher);
    clearInterval(reporter);
  }
  const rssSeries = intervals.map((i) => i.rssMb);
  const summary = {
    startedAt: startedAt.toISOString(),
    database: args.db,
    /** The app's database connections (null: the app's own default). */
    poolMax: args.pool === undefined ? null : Number(args.pool),
    durationSec,
    machine: { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg() },
    reads: summarizeLatencies(all.reads, all.readFailures),
    markdownReads: summarizeLatencies(all.markdownReads, 0),
    writes: all.statuses,
    hostileWrites: all.hostileStatuses,
    rssMb: { first: rssSeries[0], min: Math.min(...rssSeries), max: Math.max(...rssSeries), last: rssSeries.at(-1) },
    serverUp: !serverDied && stack.appRssMb() > 0,
    intervals,
  };
  await stack.stop();
  await database.drop();
  await embedded?.stop();
  rmSync(workDir, { recursive: true, force: true });

  mkdirSync(args.out, { recursive: true });
  const file = path.join(args.out, `soak-${summary.startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(summary, null, 2));
  const errors = Object.entries({ ...summary.writes }).filter(([status]) => status === "0" || Number(status) >= 500);
  process.stdout.write(
    [
      "",
      `Soak of ${durationSec} s on ${{ postgres: "PostgreSQL", embedded: "the embedded PostgreSQL server (RSS: the app's plus the server's PSS)", pglite: "PGlite" }[args.db]} (${readers} small-note readers, 1 Markdown reader, ${writers} writers of 100 KB Markdown, one in ten pathological), the app's database connections ${args.pool ?? "at its default"}, on ${summary.machine.cpus} CPUs:`,
      `- small-note reads: ${summary.reads.requests} ok, ${summary.reads.failures} reads failed (all readers); p50 ${summary.reads.p50} ms, p99 ${summary.reads.p99} ms`,
      `- Markdown reads: ${summary.markdownReads.requests}; p50 ${summary.markdownReads.p50} ms, p99 ${summary.markdownReads.p99} ms`,
      `- realistic writes by status: ${JSON.stringify(summary.writes)}; pathological writes by status: ${JSON.stringify(summary.hostileWrites)}`,
      `- server RSS: first ${summary.rssMb.first} MB, min ${summary.rssMb.min} MB, max ${summary.rssMb.max} MB, last ${summary.rssMb.last} MB; server up throughout: ${summary.serverUp ? "yes" : "NO"}`,
      `- details: ${file}`,
      "",
    ].join("\n"),
  );
  return summary.serverUp && summary.reads.failures === 0 && errors.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
