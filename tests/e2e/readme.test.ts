import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPartnerKey } from "@/identity/partners";
import { startIdentityServer } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { SERVERLESS_DIR, serverFunctionDir } from "@/scripts/build-serverless";
import { freePort, isPortFree, makeTempDir, waitForOutput, type TempDir } from "@/scripts/lib/processes";
import { testEnv } from "@/tests/helpers/env";
import { PGBOUNCER_BIN, startPgbouncer } from "@/tests/helpers/pgbouncer";
import { findSystemBinary, requireSystemBinary } from "@/tests/helpers/system";
import { run } from "@/tests/identity/helpers";
import { interruptGroup, killDevRuns, killGroup, makeDevStackDir, ROOT, spawnNpmRunDev, type DevProcess } from "./helpers";
import { awaitBuild } from "@/tests/helpers/build-status";

// The serverless function and the container's folder are made after the app's build (tests/helpers/build-for-tests.ts).
await awaitBuild("deployments");

// The shell blocks of the README and of the docs it leads to (DEV_DOCS),
// pasted in order into one shell against a fresh `npm run dev`, as a newcomer
// would, and docs/deploy.md's as a partner developer would (below). Every
// ```sh/```bash block carries a
// `<!-- readme-test: <name> -->` line right above it: `skip (why)` for blocks
// that are not meant to run against the dev stack, else a name this file
// checks the block's output under. A block without one fails the test, so a
// new block is run or skipped on purpose.

const START_TIMEOUT_MS = 180_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Block = { name: string; code: string; line: number; file: string };

/** The fenced sh/bash blocks of a Markdown file with the marker above each. */
function readmeShellBlocks(file: string): { run: Block[]; skipped: Block[]; unmarked: Block[] } {
  const markdown = fs.readFileSync(path.join(ROOT, file), "utf8");
  const lines = markdown.split("\n");
  const result = { run: [] as Block[], skipped: [] as Block[], unmarked: [] as Block[] };
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.indexOf("```", i + 1);
    const block = { name: "", code: lines.slice(i + 1, end).join("\n"), line: i + 1, file };
    if (fence[1] === "sh" || fence[1] === "bash") {
      const marker = /^<!-- readme-test: (\S+)(?: \(.*\))? -->$/.exec(lines[i - 1] ?? "");
      if (!marker) result.unmarked.push(block);
      else if (marker[1] === "skip") result.skipped.push({ ...block, name: "skip" });
      else result.run.push({ ...block, name: marker[1]! });
    }
    i = end;
  }
  return result;
}

type Ctx = { stdout: string; stderr: string; lines: string[] };
const json = (line: string | undefined) => JSON.parse(line ?? "null");

/** What each block must print, by its marker name. */
const EXPECTATIONS: Record<string, (ctx: Ctx) => void> = {
  "own-account": ({ lines, stderr }) => {
    // `npm run users` without -s: npm's own header lines come first.
    expect(lines.filter((line) => line.startsWith("{")).map(json)).toEqual([{ id: expect.stringMatching(UUID), email: "you@example.com" }]);
    expect(stderr).toContain("Saved API key to ");
    // The embedded database stayed the running app's.
    expect(stderr).toMatch(/npm run dev \(pid \d+\) is running on this database; going through its app/);
  },
  "typical-flow": ({ lines }) => {
    const [before, created, after] = lines.map(json);
    expect(before).toEqual({ notes: [], total: 0 });
    expect(created.note).toMatchObject({ title: "Groceries", contentText: "milk, eggs" });
    expect(after).toEqual({ notes: [created.note], total: 1 });
  },
  "agent-setup": ({ lines }) => expect(lines).toEqual([expect.stringMatching(UUID)]),
  etag: ({ lines }) => {
    expect(lines[0]).toBe('"v1"');
    expect(json(lines[1]).note).toMatchObject({ title: "Plan", contentText: expect.stringContaining("draft") });
  },
  "markdown-in": ({ lines }) => expect(lines).toEqual([expect.stringMatching(UUID)]),
  "markdown-out": ({ stdout }) => {
    expect(stdout.startsWith("# Release plan\n")).toBe(true);
    expect(stdout).toContain("## Steps");
    expect(stdout).toContain("1. Tag");
    expect(stdout).toContain("https://example.com");
  },
  "targeted-edits": ({ lines }) => {
    expect(lines).toContain("Build and test");
    expect(lines.at(-1)).toBe("write the changelog");
  },
  attachments: ({ lines }) => expect(lines).toEqual(["Meeting notes, attached as a file."]),
  changes: ({ lines }) => {
    expect(json(lines[0])).toEqual({
      // A note, not a tag: the block runs again as written (a second tag of the same name would be a 409, then a 10 s wait).
      changes: [{ entity: "note", action: "created", id: expect.stringMatching(UUID), version: 1, at: expect.any(String) }],
      cursor: expect.stringMatching(/^\d+$/),
      hasMore: false,
    });
  },
  "mcp-token": ({ stdout }) => expect(stdout.trim()).toBe(""),
  "mcp-call": ({ lines }) => {
    const answer = json(lines[0]);
    expect(answer.result.isError ?? false).toBe(false);
    expect(answer.result.content[0].text).toContain("# Plan");
    expect(answer.result.content[0].text).toContain("[x] draft");
  },
  idempotency: ({ lines }) => {
    const [first, retry] = lines.map(json);
    expect(first.note.title).toBe("Standup");
    expect(retry.note).toEqual(first.note);
  },
};

/**
 * Pastes `blocks` in order into one bash (after `prelude`, each rewritten by
 * `rewrite`) and checks each block's output against its expectation;
 * resolves with the failures, each naming its block.
 */
async function runBlocks(
  blocks: Block[],
  expectations: Record<string, (ctx: Ctx) => void>,
  options: { env: Record<string, string>; rewrite?: (code: string) => string; prelude?: string[]; context?: () => string },
): Promise<string[]> {
  const script = [
    "set -euo pipefail",
    ...(options.prelude ?? []),
    ...blocks.flatMap((block) => [
      `printf '\\n@@block %s@@\\n' ${block.name}; printf '\\n@@block %s@@\\n' ${block.name} >&2`,
      options.rewrite ? options.rewrite(block.code) : block.code,
    ]),
  ].join("\n");
  const shell = await run("bash", ["-c", script], { env: options.env, timeoutMs: 300_000 });
  expect(shell.code, `${shell.stdout}\n${shell.stderr}\n${options.context?.() ?? ""}`).toBe(0);
  const split = (text: string) => {
    const parts = new Map<string, string>();
    const pieces = text.split(/\n@@block (\S+)@@\n/).slice(1);
    for (let i = 0; i < pieces.length; i += 2) parts.set(pieces[i]!, pieces[i + 1] ?? "");
    return parts;
  };
  const stdouts = split(shell.stdout);
  const stderrs = split(shell.stderr);
  const failures: string[] = [];
  for (const block of blocks) {
    const stdout = stdouts.get(block.name) ?? "";
    const stderr = stderrs.get(block.name) ?? "";
    const lines = stdout.split("\n").filter((line) => line.trim() !== "");
    try {
      expectations[block.name]!({ stdout, stderr, lines });
    } catch (error) {
      failures.push(`${block.file} block "${block.name}" (line ${block.line}) printed:\n${stdout}\n${stderr}\n${(error as Error).message}`);
    }
  }
  return failures;
}

let temp: TempDir;
let env: Record<string, string>;

/** `npm run dev` with a home of its own, so the agent key goes where a newcomer's would; resolves once it prints `until` (by default, the banner's end). */
async function startDev(until = /Tokens expire/): Promise<DevProcess> {
  const dev = spawnNpmRunDev(env, { unset: ["AGENT_CONFIG_DIR", "NEXT_TELEMETRY_DISABLED"] });
  await waitForOutput(dev.child, dev.output, until, START_TIMEOUT_MS);
  return dev;
}

async function stopDev(dev: DevProcess): Promise<void> {
  await interruptGroup(dev.child, 30_000).catch(() => undefined);
  killGroup(dev.child);
}

beforeAll(async () => {
  const stackDir = await makeDevStackDir("notes-readme-");
  temp = stackDir.temp;
  env = {
    ...stackDir.env,
    HOME: path.join(temp.dir, "home"),
    // `next dev` allows one server per build folder: a folder of its own, so
    // tests/e2e/npm-run-dev.test.ts (or a developer's npm run dev) can run beside.
    NEXT_DIST_DIR: ".next-readme",
  };
  fs.mkdirSync(env.HOME!, { recursive: true });
});

afterAll(async () => {
  killDevRuns();
  await temp?.remove();
});

// The blocks are bash with curl, as a reader's terminal has them.
const tools = [findSystemBinary("bash"), findSystemBinary("curl")];
const haveTools = tools.every((tool) => requireSystemBinary(tool, "README blocks against npm run dev"));

/**
 * The README and the docs whose blocks run against `npm run dev`, in reading
 * order: docs/api.md goes on from the README's first agent call, in the same
 * shell (its blocks use the README's account and each other's variables).
 */
const DEV_DOCS = ["README.md", "docs/api.md", "docs/using.md"];

describe("README and the docs against npm run dev", () => {
  const files = DEV_DOCS.map(readmeShellBlocks);
  const blocks = { run: files.flatMap((file) => file.run), unmarked: files.flatMap((file) => file.unmarked) };

  it("marks every shell block as run or skipped, and this test knows every run block", () => {
    expect(blocks.unmarked.map((block) => `${block.file} line ${block.line}`)).toEqual([]);
    expect(blocks.run.map((block) => block.name).filter((name) => !EXPECTATIONS[name])).toEqual([]);
    // Each name once: the output of each block is found by its name.
    expect(blocks.run.map((block) => block.name).sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });

  it.skipIf(!haveTools)(
    "their shell blocks run in order against a fresh npm run dev, each printing what its page says; the first run is quiet",
    async () => {
      const dev = await startDev();
      // npm's complaints about this machine's own npm settings are not the project's output.
      const firstRun = dev.output().replace(/^npm warn Unknown (env|user) config .*\n/gm, "");
      // A newcomer reads warnings as errors: none on a first run.
      expect(firstRun).not.toMatch(/telemetry|Base URL|warn|error|deprecat/i);
      expect(firstRun).toContain("(browser sign-in: demo@example.com / demo-password)");

      // The shell of someone who ran `npm run dev` with NOTES_DATA_DIR set
      // (the README says to pass on the same settings), on this test's ports.
      const shellEnv = {
        HOME: env.HOME!,
        NOTES_DATA_DIR: env.NOTES_DATA_DIR!,
        IDENTITY_DATA_DIR: path.join(env.NOTES_DATA_DIR!, "identity"),
        IDENTITY_API_URL: `http://127.0.0.1:${env.IDENTITY_PORT}`,
      };
      const failures = await runBlocks(blocks.run, EXPECTATIONS, {
        env: shellEnv,
        rewrite: (code) => code.replaceAll("http://localhost:3000", `http://localhost:${env.PORT}`),
        // Each response on a line of its own; the first request to a route compiles it.
        prelude: ['curl() { command curl --max-time 90 "$@"; echo; }'],
        context: () => dev.output(),
      });
      expect(failures.join("\n\n")).toBe("");

      // The next start keeps the key saved in "Your own account", and says whose it is (the banner
      // it then prints for that account: tests/unit/dev-banner.test.ts); stopped once it has said so.
      await stopDev(dev);
      const again = await startDev(/\[dev\] Demo account /);
      expect(again.output()).toContain(`[dev] Agent key: kept the saved key of you@example.com in ${path.join(env.HOME!, ".config", "notes-agent")}`);
      await stopDev(again);
    },
    START_TIMEOUT_MS * 2 + 300_000,
  );
});

// docs/deploy.md's blocks, in order in one shell, as a partner developer runs
// them: against a fresh PostgreSQL database through PgBouncer in transaction
// mode, the serverless build the test suite's global setup made, and an
// identity service with the app's partner key.
const DEPLOY_EXPECTATIONS: Record<string, (ctx: Ctx) => void> = {
  "release-step": ({ stdout, stderr }) => expect(`${stdout}${stderr}`).toMatch(/Applied \d+_init/),
  "run-locally": ({ lines }) => expect(lines).toEqual(['{"status":"ok"}', '{"status":"ok"}']),
  "identity-bundle": ({ lines }) => {
    expect(lines[0]).toMatch(/^dist\/identity\.mjs: /);
    expect(lines.filter((line) => line.includes("notes@example.com") && line.includes("active"))).toHaveLength(1);
  },
};

describe("docs/deploy.md", () => {
  const blocks = readmeShellBlocks("docs/deploy.md");
  const postgres = testEnv.TEST_DATABASE_URL;
  const serverless = path.join(serverFunctionDir(path.join(ROOT, SERVERLESS_DIR)), "index.mjs");
  const ready = Boolean(postgres) && fs.existsSync(PGBOUNCER_BIN) && fs.existsSync(serverless);
  if (!ready) process.stderr.write(`[skip] docs/deploy.md blocks: they need TEST_DATABASE_URL, ${PGBOUNCER_BIN} and the serverless build (npm run build:serverless)\n`);

  it("marks every shell block as run or skipped, and this test knows every run block", () => {
    expect(blocks.unmarked.map((block) => `line ${block.line}`)).toEqual([]);
    expect(blocks.run.map((block) => block.name).sort()).toEqual(Object.keys(DEPLOY_EXPECTATIONS).sort());
  });

  it.skipIf(!haveTools || !ready)("its shell blocks run in order, each printing what the page says", async () => {
    const database = `notes_deploy_doc_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const direct = new URL(postgres!);
    direct.pathname = `/${database}`;
    const bouncer = await startPgbouncer(postgres!);
    const home = await makeTempDir("notes-deploy-doc-");
    const identity = await startIdentityServer({ port: 0, host: "127.0.0.1", dataDir: path.join(home.dir, "identity"), log: () => undefined });
    const { partnerKey } = await addPartnerKey(await IdentityStore.open(path.join(home.dir, "identity")), { email: "notes@example.com" });
    try {
      let port = await freePort();
      while (!(await isPortFree(port + 1))) port = await freePort();
      const failures = await runBlocks(blocks.run, DEPLOY_EXPECTATIONS, {
        env: {
          HOME: home.dir,
          DATABASE_URL: bouncer.appUrl(direct.toString()),
          DIRECT_DATABASE_URL: direct.toString(),
          DATABASE_POOL_MAX: "1",
          APP_URL: `http://127.0.0.1:${port}`,
          IDENTITY_API_URL: identity.url,
          IDENTITY_PARTNER_KEY: partnerKey,
          BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
          CONVERSION_THREADS: "1",
        },
        rewrite: (code) =>
          code
            .replaceAll("3001", String(port + 1))
            .replaceAll("3000", String(port))
            .replaceAll("/tmp/notes-identity-data", path.join(home.dir, "identity-data"))
            .replaceAll("/tmp/notes-lambda.log", path.join(home.dir, "lambda.log")),
      });
      expect(failures.join("\n\n")).toBe("");
    } finally {
      await identity.close();
      await bouncer.stop();
      await home.remove();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }, 300_000);
});
