import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createUser } from "@/lib/users/mutations";
import { collectOutput, commandLine, freePort, isAlive, processTree, waitFor, waitForHttp } from "@/scripts/lib/processes";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { startFakeIdentity, type FakeIdentity } from "@/tests/helpers/fake-identity";
import { ROOT } from "@/tests/helpers/test-app";
import { createTestDatabase, type TestDatabase } from "@/tests/helpers/test-db";

type Started = { npm: ChildProcess; output: () => string; pids: () => number[] };

/** The pid in `pids` whose command line runs `script` (the tree also holds helpers, such as the TypeScript loader's esbuild service). */
function pidRunning(pids: number[], script: string): number {
  const pid = pids.find((candidate) => {
    // The node process itself, not the `sh -c` npm runs it under, whose one argument also ends with the script.
    const args = commandLine(candidate);
    return /(^|\/)node$/.test(args[0] ?? "") && args.some((arg) => arg.endsWith(script));
  });
  if (pid === undefined) throw new Error(`no process of the tree runs ${script}`);
  return pid;
}

function treeExited(tree: number[], output: () => string): Promise<boolean> {
  return waitFor(() => tree.every((pid) => !isAlive(pid)), { timeoutMs: 30_000, intervalMs: 100, message: () => `the process tree to exit:\n${output()}` });
}

type Result = { status: number; connection?: string } | { error: string };

function send(port: number, options: { method?: string; path: string; token: string; body?: string; agent?: http.Agent | false }): Promise<Result> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path, agent: options.agent ?? false, headers: { "x-session-token": options.token, "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(options.body);
  });
}

describe.each(TEST_DB_KINDS)("npm start: SIGTERM under load, then restart (%s)", (kind) => {
  let identity: FakeIdentity;
  let database: TestDatabase;
  let port: number;
  const email = "shutdown@example.com";

  beforeAll(async () => {
    identity = await startFakeIdentity();
    database = await createTestDatabase(kind);
    await database.withDb((db) => createUser(db, { email }));
    port = await freePort();
  });
  afterAll(async () => {
    await identity?.close();
    await database?.drop();
  });

  async function start(): Promise<Started> {
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        // The load below is far over an account's API budget; this test is about shutdown.
        API_RATE_LIMIT: "0",
        DATABASE_URL: database.url,
        BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
        IDENTITY_API_URL: identity.url,
        IDENTITY_PARTNER_KEY: identity.partnerKey,
        SHUTDOWN_TIMEOUT_MS: "20000",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(npm);
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, { child: npm, output, timeoutMs: 90_000, ready: (res) => res.status === 200 });
    const pids = () => processTree(npm.pid!);
    const tree = pids();
    // A failed test must not leave a server holding the port and the database.
    onTestFinished(() => {
      for (const pid of tree) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    });
    return { npm, output, pids };
  }

  let acknowledged = 0;

  // Each round signals a different process of the tree; the next round is the restart on the same port and data.
  for (const [target, signal] of [
    ["the server", "SIGTERM"],
    ["npm", "SIGTERM"],
    ["scripts/start.ts", "SIGINT"],
  ] as const) {
    it(`${signal} to ${target}: in-flight requests are answered, idle sockets closed, the whole tree exits, and it starts again`, async () => {
      const app = await start();
      const tree = app.pids();
      // npm → node scripts/start.ts → node .next/serve.mjs (a shell may sit under npm)
      expect(tree.length, app.output()).toBeGreaterThanOrEqual(3);
      const token = identity.tokenFor(email);

      // Every acknowledged note of earlier rounds survived the restarts.
      const listed = await fetch(`http://127.0.0.1:${port}/api/notes?limit=1`, { headers: { "x-session-token": token } });
      expect((await listed.json()).total).toBeGreaterThanOrEqual(acknowledged);

      // An idle keep-alive connection, which must not hold the server open.
      const idle = net.connect({ host: "127.0.0.1", port });
      await new Promise((resolve) => idle.once("connect", resolve));
      idle.write(`GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`);
      await new Promise((resolve) => idle.once("data", resolve));
      const idleClosed = new Promise((resolve) => idle.once("close", resolve));

      // Requests in flight when the signal arrives: headers and half a body sent, the rest after it.
      const body = JSON.stringify({ title: "In flight", contentText: "x".repeat(2000) });
      const inFlight = Array.from({ length: 10 }, () => {
        const socket = net.connect({ host: "127.0.0.1", port });
        const chunks: Buffer[] = [];
        socket.on("data", (chunk: Buffer) => chunks.push(chunk));
        const answered = new Promise<string>((resolve) => {
          socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
          socket.on("error", () => undefined);
        });
        socket.write(
          `POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-session-token: ${token}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 1000)}`,
        );
        return { socket, answered };
      });

      // Steady load, a connection per request, until the closed listener refuses.
      const results: Result[] = [];
      const loops = Array.from({ length: 8 }, async (_, i) => {
        for (;;) {
          const result = await send(port, i % 2 ? { path: "/api/notes?limit=5", token } : { method: "POST", path: "/api/notes", token, body: JSON.stringify({ title: `Load ${i}` }) });
          results.push(result);
          if ("error" in result) return;
        }
      });
      await waitFor(() => results.length >= 40, { timeoutMs: 60_000, message: () => `40 answers under load:\n${app.output()}` });

      const pid = target === "npm" ? tree[0]! : pidRunning(tree, target === "the server" ? "/serve.mjs" : "scripts/start.ts");
      process.kill(pid, signal);
      // Draining: the listener is closed (the load sees refusals), the half-sent requests still open.
      await Promise.all(loops);
      // The rest of each body, without half-closing: a client that sends FIN first tells Node's
      // server it went away (httpAllowHalfOpen is off), and its request is aborted, shutdown or not.
      for (const { socket } of inFlight) socket.write(body.slice(1000));
      const answers = await Promise.all(inFlight.map(({ answered }) => answered));
      for (const answer of answers) expect(answer, app.output()).toMatch(/^HTTP\/1\.1 201 /);
      await idleClosed;

      const errors = results.filter((r): r is { error: string } => "error" in r);
      // Only connections the server never accepted may fail: refused once the listener is
      // closed, or reset by the kernel when they were still queued for accept at that moment.
      expect(errors.filter((r) => r.error !== "ECONNREFUSED" && r.error !== "ECONNRESET"), app.output()).toEqual([]);
      for (const r of results) if ("status" in r) expect(r.status, app.output()).toBeLessThan(500);
      acknowledged += answers.length + results.filter((r) => "status" in r && r.status === 201).length;

      await treeExited(tree, app.output);
      expect(app.output()).not.toMatch(/request\.unhandled|shutdown_deadline|shutdown_failed/);
    }, 240_000);
  }

  it("starts again after the last stop, with every acknowledged note", async () => {
    const app = await start();
    const tree = app.pids();
    const listed = await fetch(`http://127.0.0.1:${port}/api/notes?limit=1`, { headers: { "x-session-token": identity.tokenFor(email) } });
    expect((await listed.json()).total).toBeGreaterThanOrEqual(acknowledged);
    process.kill(tree[0]!, "SIGTERM");
    await treeExited(tree, app.output);
  }, 120_000);
});
