import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAndTimeFirstRequest, type ColdStartedServer } from "@/bench/cold-start";
import { startIdentityServer, type IdentityServer } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { addPartnerKey } from "@/identity/partners";
import { addUserKey } from "@/identity/users";
import { createDb } from "@/lib/db/client";
import { createUser } from "@/lib/users/mutations";
import { buildServerless, SERVERLESS_DIR, serverFunctionDir } from "@/scripts/build-serverless";
import { freePort } from "@/scripts/lib/processes";
import { copyServerlessBuild, filesOpenIn, instanceCommand, type ServerlessCopy } from "@/scripts/serverless-run";
import { apiClient } from "@/tests/helpers/api-client";
import { editorBody, waitForSaved } from "@/tests/helpers/browser";
import { testEnv } from "@/tests/helpers/env";
import { PGBOUNCER_BIN, startPgbouncer, type Pgbouncer } from "@/tests/helpers/pgbouncer";
import { chromiumExecutable } from "@/tests/helpers/system";
import { ROOT } from "@/tests/helpers/test-app";
import { mintToken } from "@/tests/identity/helpers";
import { awaitBuild } from "@/tests/helpers/build-status";

// The serverless function and the container's folder are made after the app's build (tests/helpers/build-for-tests.ts).
await awaitBuild("deployments");

// The serverless deployment, run as its host runs it: the OpenNext build for
// AWS Lambda (npm run build:serverless), each instance a fresh process
// running the function from a read-only copy of its own output, one event at
// a time (scripts/serverless-run.ts), PostgreSQL through PgBouncer in
// transaction mode, migrations as a release step over the direct URL. Two
// instances serve one account at once.

const EMAIL = "serverless-agent@example.com";
// The person the agent keeps notes for signs in with the same account.
const PASSWORD = "correct horse battery staple";
const postgres = testEnv.TEST_DATABASE_URL;
const haveBouncer = fs.existsSync(PGBOUNCER_BIN);
if (!postgres) process.stderr.write("[skip] serverless deployment: TEST_DATABASE_URL is not set (it runs against PostgreSQL)\n");
else if (!haveBouncer) process.stderr.write(`[skip] serverless deployment: no ${PGBOUNCER_BIN} (apt-get install pgbouncer)\n`);

describe.skipIf(!postgres || !haveBouncer)("serverless: the Lambda function through PgBouncer", () => {
  const instances: ColdStartedServer[] = [];
  const urls: string[] = [];
  let database: string;
  let directUrl: string;
  let bouncer: Pgbouncer;
  let identity: IdentityServer;
  let identityDir: string;
  let apiKey: string;
  let copy: ServerlessCopy;

  const token = () => mintToken(identity.url, apiKey);

  beforeAll(async () => {
    // The global setup built it (or, with TEST_SKIP_BUILD=1, an earlier run did; else it is built now).
    const buildDir = path.join(ROOT, SERVERLESS_DIR);
    if (!fs.existsSync(path.join(serverFunctionDir(buildDir), "index.mjs"))) await buildServerless({ root: ROOT });

    database = `notes_serverless_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(postgres!);
    url.pathname = `/${database}`;
    directUrl = url.toString();
    bouncer = await startPgbouncer(postgres!, { poolSize: 4 });

    identityDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-serverless-identity-"));
    identity = await startIdentityServer({ port: 0, host: "127.0.0.1", dataDir: identityDir });
    const store = await IdentityStore.open(identityDir);
    ({ apiKey } = await addUserKey(store, { email: EMAIL }));
    const { partnerKey } = await addPartnerKey(store, { email: "notes@example.com" });

    // The release step: migrations over the direct connection, the app's URL being the pooled one.
    const releaseEnv: Record<string, string> = { PATH: process.env.PATH!, HOME: os.homedir(), DATABASE_URL: bouncer.appUrl(directUrl), DIRECT_DATABASE_URL: directUrl };
    const release = spawnSync("npm", ["run", "-s", "db:migrate"], {
      cwd: ROOT,
      env: releaseEnv as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(release.status, `${release.stdout}${release.stderr}`).toBe(0);
    expect(release.stdout).toMatch(/Applied \d+_init/);
    const handle = await createDb({ kind: "postgres", url: directUrl }, { poolMax: 1 });
    await createUser(handle.db, { email: EMAIL, password: PASSWORD }).finally(() => handle.close());

    copy = await copyServerlessBuild(buildDir);
    const first = await token();
    for (let i = 0; i < 2; i += 1) {
      const port = await freePort();
      urls.push(`http://127.0.0.1:${port}`);
      const spec = instanceCommand(copy, {
        port,
        env: {
          APP_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: bouncer.appUrl(directUrl),
          DATABASE_POOL_MAX: "2",
          IDENTITY_API_URL: identity.url,
          IDENTITY_PARTNER_KEY: partnerKey,
          BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
          CONVERSION_THREADS: "1",
          NEXT_TELEMETRY_DISABLED: "1",
        },
      });
      const instance = await startAndTimeFirstRequest({ ...spec, url: urls[i]!, token: first, timeoutMs: 120_000 });
      instances.push(instance);
      process.stdout.write(`[measure] serverless function instance ${i + 1} cold start (process start → first authenticated 200): ${instance.coldStartMs} ms\n`);
    }
  }, 900_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    copy?.remove();
    await bouncer?.stop();
    await identity?.close();
    if (identityDir) fs.rmSync(identityDir, { recursive: true, force: true });
    if (database) {
      const admin = new pg.Client({ connectionString: postgres });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("the agent's flow: REST, Markdown, a targeted edit, an attachment, the change feed, a restore", async () => {
    const api = apiClient(urls[0]!);
    const t = await token();
    const start = await api("/api/changes", { token: t });
    expect(start.status).toBe(200);

    const created = await api("/api/notes", { token: t, method: "POST", json: { title: "Groceries", contentText: "milk, eggs" } });
    expect(created.status).toBe(201);
    const id = created.body.note.id as string;
    expect((await api("/api/notes?search=eggs", { token: t })).body).toMatchObject({ total: 1, notes: [{ id }] });
    expect((await api("/api/notes", { token: t })).body.total).toBe(1);

    const etag = created.headers.get("etag")!;
    const patched = await api(`/api/notes/${id}`, { token: t, method: "PATCH", json: { title: "Groceries for Sunday" }, headers: { "if-match": etag } });
    expect(patched.status).toBe(200);
    const stale = await api(`/api/notes/${id}`, { token: t, method: "PATCH", json: { title: "Lost" }, headers: { "if-match": etag } });
    expect(stale.status).toBe(412);

    // Markdown goes through the conversion worker, which ships inside the function.
    const markdown = await api("/api/notes", { token: t, method: "POST", json: { title: "Plan", contentMarkdown: "## Steps\n\n- [ ] ship\n- [ ] tell" } });
    expect(markdown.status).toBe(201);
    const planId = markdown.body.note.id as string;
    const read = await fetch(`${urls[0]}/api/notes/${planId}?format=markdown`, { headers: { "x-session-token": t } });
    expect(await read.text()).toContain("* [ ] ship");
    const edited = await api(`/api/notes/${planId}/edits`, {
      token: t,
      method: "POST",
      json: { operations: [{ op: "replace_text", find: "tell", replace: "tell the team" }, { op: "append", markdown: "- [ ] celebrate" }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.note.contentText).toContain("tell the team");
    const after = await fetch(`${urls[0]}/api/notes/${planId}?format=markdown`, { headers: { "x-session-token": t } });
    expect(await after.text()).toContain("* [ ] celebrate");

    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");
    const upload = await fetch(`${urls[0]}/api/attachments?name=dot.png`, { method: "POST", headers: { "x-session-token": t, "content-type": "image/png" }, body: png });
    expect(upload.status).toBe(201);
    const { attachment } = (await upload.json()) as { attachment: { url: string } };
    const download = await fetch(`${urls[0]}${attachment.url}`, { headers: { "x-session-token": t } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);

    const changes = await api(`/api/changes?since=${start.body.cursor}`, { token: t });
    expect(changes.status).toBe(200);
    expect(changes.body.changes.filter((change: { id: string }) => change.id === id).map((change: { action: string }) => change.action)).toEqual(["created", "updated"]);

    // Restore the first version: the note's title comes back.
    const revisions = await api(`/api/notes/${id}/revisions`, { token: t });
    expect(revisions.status).toBe(200);
    const oldest = revisions.body.revisions.at(-1);
    const restored = await api(`/api/notes/${id}/revisions/${oldest.id}/restore`, { token: t, method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.body.note.title).toBe(oldest.title);
  });

  it("the MCP tools", async () => {
    const client = new Client({ name: "serverless-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", urls[1]), { requestInit: { headers: { "x-session-token": await token() } } }));
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(["search_notes", "get_note", "create_note", "edit_note", "restore_revision", "recent_changes"]));
      const created = await client.callTool({ name: "create_note", arguments: { title: "From MCP", contentMarkdown: "# Agenda\n\n- one" } });
      expect(created.isError).toBeFalsy();
      const { note } = created.structuredContent as { note: { id: string } };
      const got = await client.callTool({ name: "get_note", arguments: { id: note.id } });
      expect(JSON.stringify(got.content)).toContain("* one");
      const found = await client.callTool({ name: "search_notes", arguments: { search: "From MCP" } });
      expect((found.structuredContent as { total: number }).total).toBe(1);
      const edited = await client.callTool({ name: "edit_note", arguments: { id: note.id, operations: [{ op: "append", markdown: "- two" }] } });
      expect(edited.isError).toBeFalsy();
      const recent = await client.callTool({ name: "recent_changes", arguments: {} });
      expect(recent.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("two instances serve one account at once: concurrent writes, one note's conflict answered 412", async () => {
    const [a, b] = [apiClient(urls[0]!), apiClient(urls[1]!)];
    const t = await token();
    const creates = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b)("/api/notes", { token: t, method: "POST", json: { title: `parallel ${i}`, contentMarkdown: `- item ${i}` } })));
    expect(creates.map((res) => res.status)).toEqual(Array(8).fill(201));
    const shared = creates[0]!;
    const etag = shared.headers.get("etag")!;
    const writes = await Promise.all(
      [a, b].map((api, i) => api(`/api/notes/${shared.body.note.id}`, { token: t, method: "PATCH", json: { title: `by instance ${i + 1}` }, headers: { "if-match": etag } })),
    );
    expect(writes.map((res) => res.status).sort()).toEqual([200, 412]);
    // Either instance reads what the other wrote.
    for (const api of [a, b]) expect((await api("/api/notes?search=item", { token: t })).body.total).toBe(8);
  });

  it("a person signs in and saves in a real browser, through the function", async () => {
    const api = apiClient(urls[0]!);
    const t = await token();
    const created = await api("/api/notes", { token: t, method: "POST", json: { title: "Shopping", contentMarkdown: "Bread" } });
    expect(created.status).toBe(201);
    const browser = await chromium.launch({ executablePath: (await chromiumExecutable()).path, args: ["--no-sandbox", "--disable-gpu"] });
    try {
      const page = await (await browser.newContext({ baseURL: urls[0] })).newPage();
      page.setDefaultTimeout(30_000);
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(EMAIL);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/notes(\?|$)/);
      await page.goto(`/notes/${created.body.note.id}`);
      await editorBody(page).getByText("Bread").click();
      await page.keyboard.press("End");
      await page.keyboard.type(" and butter");
      await waitForSaved(page, 30_000);
    } finally {
      await browser.close();
    }
    // The other instance reads the person's save.
    const read = await apiClient(urls[1]!)(`/api/notes/${created.body.note.id}`, { token: t });
    expect(read.body.note.contentText).toContain("Bread and butter");
  });

  it("runs from its own output only: nothing of the checkout is open in an instance", () => {
    for (const instance of instances) expect(filesOpenIn(instance.child.pid!, ROOT)).toEqual([]);
  });

  it("logs one line per request, as npm start does: the path without its query, the status, the request id it answered with", async () => {
    const requestId = `serverless-log-${Date.now()}`;
    const res = await fetch(`${urls[0]}/api/notes?search=private-words`, { headers: { "x-session-token": await token(), "x-request-id": requestId } });
    expect(res.status).toBe(200);
    const line = () =>
      instances[0]!
        .output()
        .split("\n")
        .filter((text) => text.startsWith("{") && text.includes(requestId))
        .map((text) => JSON.parse(text) as Record<string, unknown>)[0];
    await expect.poll(line).toMatchObject({ event: "request", method: "GET", path: "/api/notes", status: 200, requestId, accountId: expect.any(String) });
    expect(instances[0]!.output()).not.toContain("private-words");
  });
});
