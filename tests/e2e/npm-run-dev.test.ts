import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createDb } from "@/lib/db/client";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { createNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { createUser } from "@/lib/users/mutations";
import { listUsers } from "@/lib/users/queries";
import { openDatabase } from "@/scripts/lib/database";
import { exited, isPortFree, waitForOutput, type TempDir } from "@/scripts/lib/processes";
import { apiClient } from "@/tests/helpers/api-client";
import { run, runAgentCli, runIdentityCli } from "@/tests/identity/helpers";
import type { Page } from "playwright-core";
import { editorBody, launchChromium, noteIdFromUrl, waitForSaved } from "@/tests/helpers/browser";
import { DEMO_EMAIL, DEMO_PASSWORD } from "@/scripts/lib/dev-provision";
import { expectSuccess, interruptGroup, killDevRuns, killGroup, makeDevStackDir, spawnNpmRunDev, type DevProcess } from "./helpers";

// `npm run dev` against temporary directories and free ports, exactly as a
// developer runs it: the same command, stopped with Ctrl-C (SIGINT to its
// whole process group), then started again over what the first run left.

/** `next dev` compiles on first request; a cold machine needs its time. */
const START_TIMEOUT_MS = 180_000;

/** Typed while the browser is offline, then the tab closed: the browser keeps it until it is saved. */
const OFFLINE_TEXT = "Typed offline, kept by the browser";

type DevRun = DevProcess & { appUrl: string; identityUrl: string };

let temp: TempDir;
let env: Record<string, string>;

function spawnDev(overrides: Record<string, string> = {}): DevProcess {
  const dev = spawnNpmRunDev({ ...env, ...overrides });
  // A failed assertion must not leave the stack holding its ports for the next test.
  onTestFinished(() => killGroup(dev.child));
  return dev;
}

async function startDev(): Promise<DevRun> {
  const { child, output } = spawnDev();
  const [, appUrl] = await waitForOutput(child, output, /Notes app\s+(http:\/\/\S+)/, START_TIMEOUT_MS);
  const [, identityUrl] = /Identity service\s+(http:\/\/\S+)/.exec(output())!;
  return { child, output, appUrl: appUrl!, identityUrl: identityUrl! };
}

/**
 * Ctrl-C: SIGINT to the whole group. The script itself must stop everything
 * and exit 0 ("Stopped." is its last line, printed only then); npm, whose
 * shell got the SIGINT too, reports the interrupt as in a terminal.
 */
async function interrupt(dev: DevRun): Promise<void> {
  const npm = await interruptGroup(dev.child);
  expect(dev.output()).toContain("[dev] Stopping…");
  expect(dev.output().trimEnd().endsWith("[dev] Stopped."), dev.output().slice(-3000)).toBe(true);
  expect([{ code: 0, signal: null }, { code: 130, signal: null }, { code: null, signal: "SIGINT" }]).toContainEqual(npm);
}

const agentEnv = (dev: DevRun) => ({ AGENT_CONFIG_DIR: env.AGENT_CONFIG_DIR!, IDENTITY_API_URL: dev.identityUrl });
const identityEnv = () => ({ IDENTITY_DATA_DIR: path.join(env.NOTES_DATA_DIR!, "identity") });

async function identityState() {
  const partners = JSON.parse(expectSuccess(await runIdentityCli(["partner", "list", "--json"], identityEnv()), "partner list"));
  const users = JSON.parse(expectSuccess(await runIdentityCli(["user", "list", "--json"], identityEnv()), "user list"));
  return { partners, users };
}

/** The commands the banner tells people to paste, run as printed (each curl's output on a line of its own). */
function printedFlow(output: string): string {
  const start = output.indexOf("Try the API");
  const end = output.indexOf("Tokens expire", start);
  expect(start, output).toBeGreaterThan(-1);
  return output
    .slice(output.indexOf("\n", start) + 1, end)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}

beforeAll(async () => {
  const stackDir = await makeDevStackDir("notes-dev-");
  temp = stackDir.temp;
  env = { ...stackDir.env, AGENT_CONFIG_DIR: path.join(temp.dir, "agent"), NEXT_TELEMETRY_DISABLED: "1" };
});

afterAll(async () => {
  killDevRuns();
  await temp?.remove();
});

const EARLIER_EMAIL = "earlier@example.com";

describe("npm run dev", () => {
  let firstPartnerKey: string;
  let earlierNote: { id: string; userId: string };

  it(
    "first run: moves an earlier release's .data/pglite into the embedded PostgreSQL database by itself, provisions everything, serves the printed flow, stops cleanly on Ctrl-C",
    async () => {
      // A data folder as the release before the embedded server left it: PGlite in <NOTES_DATA_DIR>/pglite, written through the data layer.
      const oldTarget = { kind: "pglite" as const, dataDir: path.join(env.NOTES_DATA_DIR!, "pglite") };
      await migrateDatabaseTarget(oldTarget);
      const old = await createDb(oldTarget);
      try {
        const user = await createUser(old.db, { email: EARLIER_EMAIL });
        const { note } = await createNote(old.db, { userId: user.id, input: { title: "Kept", contentText: "from the earlier release" } });
        earlierNote = { id: note.id, userId: user.id };
      } finally {
        await old.close();
      }

      const dev = await startDev();
      expect(dev.appUrl).toBe(`http://localhost:${env.PORT}`);
      expect(dev.identityUrl).toBe(`http://127.0.0.1:${env.IDENTITY_PORT}`);
      const output = dev.output();
      expect(output).toMatch(/\[dev\] Moved 1 accounts, 1 notes, 1 revisions, 0 tags, 0 attachments and 0 trashed notes\. The old folder is kept as \S+pglite-moved-\d+/);
      expect(output).toContain("[dev] Partner key for the app: created");
      expect(output).toContain("[dev] Agent key: saved a new key for demo@example.com");
      expect(output).toContain("[dev] Demo account demo@example.com created");
      expect(output).toMatch(/^\[app\] .*Next\.js/m);

      const stackFile = path.join(env.NOTES_DATA_DIR!, "dev-stack.json");
      expect((await fs.stat(stackFile)).mode & 0o777).toBe(0o600);
      firstPartnerKey = JSON.parse(await fs.readFile(stackFile, "utf8")).partnerKey;

      // The banner's commands, pasted into a shell in the project directory.
      const flow = printedFlow(output);
      expect(flow).toContain(`AGENT_CONFIG_DIR=${env.AGENT_CONFIG_DIR}`);
      // No identity settings in its environment: the printed commands must carry their own.
      const shell = await run("sh", ["-ec", `curl() { command curl --max-time 90 "$@"; echo; }\n${flow}`], {
        env: {},
        timeoutMs: START_TIMEOUT_MS + 30_000,
      });
      expect(shell.code, `${shell.stdout}\n${shell.stderr}\n${dev.output()}`).toBe(0);
      const [before, created, after] = shell.stdout.trim().split("\n").map((line) => JSON.parse(line));
      expect(before).toEqual({ notes: [], total: 0 });
      expect(created.note).toMatchObject({ title: "Groceries", contentText: "milk, eggs, coffee" });
      expect(after).toEqual({ notes: [created.note], total: 1 });
      // A quiet log: after the banner, one line per request and nothing else. The token's mint, then the three
      // calls (compiled before the banner; the app's own token checks are not shown). Before: Next's
      // experiments notice, the conversion pool's start, a compile line, and a verify line per request.
      const afterBanner = () => dev.output().slice(dev.output().indexOf("Ctrl-C stops everything"));
      const lines = () => afterBanner().split("\n").slice(1).filter((line) => line.trim() !== "");
      // Next logs a request once it has answered it: the last call's line may follow its answer.
      await expect.poll(() => lines().length).toBeGreaterThanOrEqual(4);
      expect(lines(), afterBanner()).toEqual([
        expect.stringMatching(/^\[identity\] POST \/api\/tokens 200 /),
        expect.stringMatching(/^\[app\] +GET \/api\/notes\?search=groceries 200 /),
        expect.stringMatching(/^\[app\] +POST \/api\/notes 201 /),
        expect.stringMatching(/^\[app\] +GET \/api\/notes\?search=groceries 200 /),
      ]);

      await interrupt(dev);
    },
    START_TIMEOUT_MS + 90_000,
  );

  it(
    "second run: reuses the partner key, the demo account and the agent key; text typed offline and kept through a closed tab is restored and saved; one log line per request",
    async () => {
      const stateBefore = await identityState();
      const dev = await startDev();
      const output = dev.output();
      expect(output).toContain("[dev] Partner key for the app: reused");
      expect(output).toContain("[dev] Agent key: kept the saved key of demo@example.com");
      expect(output).toContain("[dev] Demo account demo@example.com reused");
      expect(output).not.toMatch(/already exists|error/i);

      // A person signs in, writes a note, loses the connection while typing more and closes the tab, opens
      // the note again and saves what the browser kept, then finds the note. In development React mounts
      // every component twice: there the kept text was once rewritten empty and then saved over the note.
      const afterBanner = () => dev.output().slice(dev.output().indexOf("Ctrl-C stops everything"));
      const api = apiClient(dev.appUrl);
      // A token lives five minutes, and a cold machine may take that long to get here: one minted for each use.
      const freshToken = async () => expectSuccess(await runAgentCli(["token"], agentEnv(dev)), "agent token");
      const browser = await launchChromium();
      try {
        const context = await browser.newContext({ baseURL: dev.appUrl });
        // Nothing the pages do throws, through every mount and remount.
        const pageErrors: string[] = [];
        context.on("weberror", (error) => pageErrors.push(error.error().stack ?? error.error().message));
        const page = await context.newPage();
        page.setDefaultTimeout(START_TIMEOUT_MS);
        await page.goto("/sign-in");
        await page.getByLabel("Email").fill(DEMO_EMAIL);
        await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(/\/notes(\?|$)/);
        await page.locator("html[data-shortcuts=ready]").waitFor({ state: "attached" });
        // The new note's page comes only after the last key: its editor takes over what was typed, Markdown
        // shortcuts included, as mounted twice.
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/notes\/[0-9a-f-]{36}\?new=1/, (route) => (route.request().method() === "GET" ? released.then(() => route.continue()) : route.continue()));
        await page.getByRole("button", { name: "New note" }).first().click();
        await page.keyboard.type("Quiet log");
        await page.keyboard.press("Enter");
        await page.keyboard.type("- one line per request");
        release();
        await page.waitForURL(/\/notes\/[0-9a-f-]{36}/);
        await waitForSaved(page, START_TIMEOUT_MS);
        // Routing on, the browser's offline switch would not stop the requests.
        await page.unrouteAll({ behavior: "wait" });
        const noteId = noteIdFromUrl(page.url());
        const token = await freshToken();
        const storedText = async () => (await api(`/api/notes/${noteId}`, { token })).body.note.contentText;
        expect((await api(`/api/notes/${noteId}`, { token })).body.note.content).toMatchObject([{ type: "bulletListItem", content: [{ text: "one line per request" }] }]);

        await context.setOffline(true);
        await page.keyboard.press("Enter");
        await page.keyboard.type(OFFLINE_TEXT);
        const kept = (tab: Page) => tab.evaluate((id) => localStorage.getItem(`notes:draft:${id}`), noteId);
        await expect.poll(() => kept(page)).toContain(OFFLINE_TEXT);
        await expect.poll(() => page.getByTestId("save-status").textContent()).toBe("Offline, retrying");
        await page.close();
        await context.setOffline(false);

        const reopened = await context.newPage();
        reopened.setDefaultTimeout(START_TIMEOUT_MS);
        await reopened.goto(`/notes/${noteId}`);
        await reopened.locator(".banner-draft").filter({ hasText: "Unsaved changes restored" }).waitFor();
        await expect.poll(() => editorBody(reopened).innerText()).toContain(OFFLINE_TEXT);
        expect(await kept(reopened)).toContain(OFFLINE_TEXT);
        expect(await storedText()).toBe("one line per request");
        await reopened.getByRole("button", { name: "Save these changes" }).click();
        await waitForSaved(reopened, START_TIMEOUT_MS);
        expect(await storedText()).toBe(`one line per request\n${OFFLINE_TEXT}`);
        expect(await kept(reopened)).toBeNull();

        await reopened.goto("/notes?q=quiet");
        await reopened.locator("[data-note-row]").filter({ hasText: "Quiet log" }).waitFor();
        expect(pageErrors).toEqual([]);
      } finally {
        await browser.close();
      }
      // Every line after the banner says one request, and nothing else: no framework or library warning, no
      // server action's arguments (a note's text among them), no error for a browser that went away.
      const request = /^\[app\] +(GET|POST|HEAD|PUT|PATCH|DELETE) \S+ \d{3} in |^\[identity\] POST \/api\/tokens 200 /;
      const lines = afterBanner().split("\n").slice(1).filter((line) => line.trim() !== "");
      process.stdout.write(`[measure] npm run dev log after the banner, for a sign-in, a new note saved, unsaved text restored and saved, and a search: ${lines.length} lines\n`);
      expect(lines.filter((line) => !request.test(line)), afterBanner()).toEqual([]);
      expect(afterBanner()).not.toContain("one line per request");
      expect(afterBanner()).not.toContain(OFFLINE_TEXT);

      // The note from the first run is still there.
      const found = await api("/api/notes?search=groceries", { token: await freshToken() });
      expect(found.status).toBe(200);
      expect(found.body.total).toBe(1);

      await interrupt(dev);

      expect(await identityState()).toEqual(stateBefore);
      expect(stateBefore.partners).toHaveLength(1);
      expect(stateBefore.users).toMatchObject([{ email: "demo@example.com", keys: [{ revokedAt: null }] }]);
      const stackFile = JSON.parse(await fs.readFile(path.join(env.NOTES_DATA_DIR!, "dev-stack.json"), "utf8"));
      expect(stackFile.partnerKey).toBe(firstPartnerKey);
      // The embedded database was stopped with the stack: it starts again for another process.
      const database = await openDatabase(undefined, { kind: "embedded", dir: path.join(env.NOTES_DATA_DIR!, "postgres") }, () => {});
      try {
        const handle = await createDb(database.target);
        try {
          expect((await listUsers(handle.db)).map((user) => user.email).sort()).toEqual(["demo@example.com", EARLIER_EMAIL]);
          expect((await getNoteOrThrow(handle.db, earlierNote)).note).toMatchObject({ title: "Kept", contentText: "from the earlier release" });
        } finally {
          await handle.close();
        }
      } finally {
        await database.stop();
      }
    },
    START_TIMEOUT_MS + 60_000,
  );

  it("Ctrl-C during the start-up, before the app runs: stops what it had started, and says so", async () => {
    const stackDir = await makeDevStackDir("notes-dev-stop-");
    onTestFinished(() => stackDir.temp.remove());
    const dev = spawnNpmRunDev({ ...env, ...stackDir.env });
    onTestFinished(() => killGroup(dev.child));
    // The database's first initdb takes seconds: Ctrl-C lands in the middle of it.
    await waitForOutput(dev.child, dev.output, /Creating the embedded PostgreSQL database/, START_TIMEOUT_MS);
    await interrupt({ ...dev, appUrl: "", identityUrl: "" });
    expect(dev.output()).not.toContain("Could not");
    // Nothing is left running: the identity service's port is free, and the database's folder is free for the next start.
    expect(await isPortFree(Number(stackDir.env.IDENTITY_PORT))).toBe(true);
    const database = await openDatabase(undefined, { kind: "embedded", dir: path.join(stackDir.env.NOTES_DATA_DIR!, "postgres") }, () => {});
    await database.stop();
  });

  it("says clearly when the identity service's port is taken, and exits 1", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const { child, output } = spawnDev({ IDENTITY_PORT: String(port) });
      expect(await exited(child)).toBe(1);
      expect(output()).toContain(
        `[dev] Port ${port} for the identity service is already in use (another npm run dev or npm run identity -- serve?). ` +
          "Stop it, or set IDENTITY_PORT to another port.",
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
