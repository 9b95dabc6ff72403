import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAndTimeFirstRequest, type ColdStartedServer } from "@/bench/cold-start";
import { startIdentityServer, type IdentityServer } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { addPartnerKey } from "@/identity/partners";
import { addUserKey } from "@/identity/users";
import { createDb } from "@/lib/db/client";
import { createUser } from "@/lib/users/mutations";
import { buildStandalone, CONTAINER_DIR, CONTAINER_ENTRY } from "@/scripts/build-standalone";
import { apiClient } from "@/tests/helpers/api-client";
import { testEnv } from "@/tests/helpers/env";
import { freePort } from "@/scripts/lib/processes";
import { ROOT } from "@/tests/helpers/test-app";
import { mintToken } from "@/tests/identity/helpers";
import { awaitBuild } from "@/tests/helpers/build-status";

// The serverless function and the container's folder are made after the app's build (tests/helpers/build-for-tests.ts).
await awaitBuild("deployments");

// Deploying, shown: what a host runs, started the way a host starts it, with
// nothing but environment variables, against a fresh PostgreSQL database:
// migrations as a release step, then the typical flow.
// - Container: the folder the Dockerfile copies (npm run build:standalone),
//   copied elsewhere and run by an unprivileged user: `node migrate.mjs`, then
//   `node serve.mjs`. (No Docker engine is needed: this is the image's content
//   and commands; `docker build` itself is not run here.)
// - Serverless: the production build (`npm run build`) served by Next's own
//   runtime, `npm run db:migrate` as the release step, and two instances at once.

const EMAIL = "partner-dev@example.com";
/** The tests' build folder, which the container's server reads its files from (tests/helpers/build-for-tests.ts). */
const STANDALONE_DIST = ".next";
const NOBODY = 65534;

const postgres = testEnv.TEST_DATABASE_URL;
if (!postgres) process.stderr.write("[skip] deployment recipes: TEST_DATABASE_URL is not set (they run against PostgreSQL)\n");

type Fixture = { databaseUrl: string; identity: IdentityServer; partnerKey: string; apiKey: string; drop(): Promise<void> };

/** An empty database (not migrated: that is the release step's job), an identity service with a user and a partner key. */
async function fixture(): Promise<Fixture> {
  const name = `notes_deploy_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgres });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgres!);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-deploy-identity-"));
  const identity = await startIdentityServer({ port: 0, host: "127.0.0.1", dataDir });
  const store = await IdentityStore.open(dataDir);
  const { apiKey } = await addUserKey(store, { email: EMAIL });
  const { partnerKey } = await addPartnerKey(store, { email: "notes@example.com" });
  return {
    databaseUrl: url.toString(),
    identity,
    partnerKey,
    apiKey,
    async drop() {
      await identity.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: postgres });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The settings a host gives the app, and nothing else (no inherited environment). */
function hostEnv(f: Fixture, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NODE_ENV: "production",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: f.databaseUrl,
    DATABASE_POOL_MAX: "2",
    IDENTITY_API_URL: f.identity.url,
    IDENTITY_PARTNER_KEY: f.partnerKey,
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** The account the agent acts for; the release step has made the schema. */
async function createAccount(f: Fixture): Promise<void> {
  const handle = await createDb({ kind: "postgres", url: f.databaseUrl }, { poolMax: 1 });
  try {
    await createUser(handle.db, { email: EMAIL });
  } finally {
    await handle.close();
  }
}

/** Mint a token → list with a search → create → list again. */
async function typicalFlow(url: string, f: Fixture): Promise<string> {
  const api = apiClient(url);
  const token = await mintToken(f.identity.url, f.apiKey);
  expect((await api("/api/notes?search=groceries", { token })).body).toEqual({ notes: [], total: 0 });
  const created = await api("/api/notes", { token, method: "POST", json: { title: "Groceries", contentText: "milk, eggs" } });
  expect(created.status).toBe(201);
  expect((await api("/api/notes?search=groceries", { token })).body).toEqual({ notes: [created.body.note], total: 1 });
  // A Markdown body goes through the conversion workers, which run outside the server's bundle.
  const markdown = await api("/api/notes", { token, method: "POST", json: { title: "Plan", contentMarkdown: "## Steps\n\n- [ ] ship" } });
  expect(markdown.status).toBe(201);
  expect(markdown.body.note.contentText).toContain("ship");
  const read = await fetch(`${url}/api/notes/${markdown.body.note.id}?format=markdown`, { headers: { "x-session-token": token } });
  expect(await read.text()).toContain("* [ ] ship");
  return created.body.note.id;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; uid?: number; gid?: number }) {
  const result = spawnSync(command, args, { ...options, env: options.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 120_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(!postgres)("deploying", () => {
  const servers: ColdStartedServer[] = [];
  let f: Fixture;

  beforeAll(async () => {
    f = await fixture();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await f?.drop();
  });

  it(
    "container: the image's folder, run as an unprivileged user with only environment variables",
    async () => {
      // The global setup made it (or, with TEST_SKIP_BUILD=1, an earlier run did; else it is made now).
      const made = path.join(ROOT, CONTAINER_DIR);
      const built = fs.existsSync(path.join(made, CONTAINER_ENTRY)) ? made : await buildStandalone({ root: ROOT, distDir: STANDALONE_DIST });
      // What `COPY --from=build /app/dist/container ./` puts in the image, owned by root and read by the app's user.
      const image = fs.mkdtempSync(path.join(os.tmpdir(), "notes-image-"));
      fs.chmodSync(image, 0o755);
      fs.cpSync(built, image, { recursive: true, verbatimSymlinks: true });
      fs.mkdirSync(path.join(image, STANDALONE_DIST, "cache"), { recursive: true });
      const asUser = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
      if (asUser.uid !== undefined) fs.chownSync(path.join(image, STANDALONE_DIST, "cache"), NOBODY, NOBODY);
      try {
        expect(fs.existsSync(path.join(image, "node_modules/next"))).toBe(true);
        expect(fs.existsSync(path.join(image, "node_modules/typescript"))).toBe(false);
        const port = await freePort();
        const env = hostEnv(f, port);

        const release = run(process.execPath, ["migrate.mjs"], { cwd: image, env: { PATH: env.PATH!, DATABASE_URL: f.databaseUrl }, ...asUser });
        expect(release.code, release.output).toBe(0);
        expect(release.output).toMatch(/Applied \d+_init/);
        await createAccount(f);

        const token = await mintToken(f.identity.url, f.apiKey);
        const server = await startAndTimeFirstRequest({ command: process.execPath, args: [CONTAINER_ENTRY], cwd: image, env, url: `http://127.0.0.1:${port}`, token, ...asUser });
        servers.push(server);
        process.stdout.write(`[measure] container cold start (process start → first authenticated 200): ${server.coldStartMs} ms\n`);
        await typicalFlow(`http://127.0.0.1:${port}`, f);
        // One JSON line per request, the search's words and the token nowhere in them.
        const requests = server
          .output()
          .split("\n")
          .filter((line) => line.includes('"event":"request"'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(requests).toContainEqual(
          expect.objectContaining({ level: "info", method: "GET", path: "/api/notes", status: 200, ms: expect.any(Number), requestId: expect.any(String), accountId: expect.any(String) }),
        );
        expect(requests).toContainEqual(expect.objectContaining({ method: "POST", path: "/api/notes", status: 201 }));
        expect(server.output()).not.toContain("groceries");
        expect(server.output()).not.toContain(token);
        // A second release is a no-op.
        expect(run(process.execPath, ["migrate.mjs"], { cwd: image, env: { PATH: env.PATH!, DATABASE_URL: f.databaseUrl }, ...asUser }).output).toContain("Database is up to date");
        await server.stop();
      } finally {
        fs.rmSync(image, { recursive: true, force: true });
      }
    },
    900_000,
  );

  it(
    "serverless: the production build on Next's runtime, migrations as a release step, two instances at once",
    async () => {
      // A fresh database for this recipe too.
      await f.drop();
      f = await fixture();
      const release = run("npm", ["run", "-s", "db:migrate"], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: os.homedir(), DATABASE_URL: f.databaseUrl } });
      expect(release.code, release.output).toBe(0);
      expect(release.output).toMatch(/Applied \d+_init/);
      await createAccount(f);

      const token = await mintToken(f.identity.url, f.apiKey);
      const instances: ColdStartedServer[] = [];
      const urls: string[] = [];
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        urls.push(`http://127.0.0.1:${port}`);
        const server = await startAndTimeFirstRequest({
          command: process.execPath,
          args: [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
          cwd: ROOT,
          env: { ...hostEnv(f, port), APP_URL: urls[0]! },
          url: urls[i]!,
          token,
        });
        servers.push(server);
        instances.push(server);
        process.stdout.write(`[measure] serverless instance ${i + 1} cold start (process start → first authenticated 200): ${server.coldStartMs} ms\n`);
      }
      const id = await typicalFlow(urls[0]!, f);
      // Any instance serves any request: the other one sees the note.
      const other = await apiClient(urls[1]!)(`/api/notes/${id}`, { token: await mintToken(f.identity.url, f.apiKey) });
      expect(other.status).toBe(200);
      expect(other.body.note.title).toBe("Groceries");
      for (const server of instances) await server.stop();
    },
    300_000,
  );
});
