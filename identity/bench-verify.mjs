#!/usr/bin/env node
// Verify throughput of the identity service: starts `identity serve` as its
// own process over a throwaway data dir, seeds a user and a partner key with
// the CLI, mints a token, then drives POST /api/verify with autocannon
// (keep-alive, 10 connections, 10 s by default). Loopback only.
//
//   node identity/bench-verify.mjs [--connections 10] [--duration 10] [--quiet]
//
// --quiet turns the server's request log off (it is on by default, as in `serve`).
import { spawn, execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import autocannon from "autocannon";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "10" },
    duration: { type: "string", default: "10" },
    quiet: { type: "boolean", default: false },
  },
});

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "identity-bench-"));
const env = { ...process.env, IDENTITY_DATA_DIR: dataDir };
const cli = async (...args) =>
  (await promisify(execFile)(process.execPath, ["--import", "tsx", "identity/cli.ts", ...args], { cwd: ROOT, env })).stdout.trim();

let server;
try {
  const userKey = await cli("user", "add", "bench@example.com");
  const partnerKey = await cli("partner", "add", "partner@example.com");
  server = spawn(process.execPath, ["--import", "tsx", "identity/cli.ts", "serve", "--port", "0", ...(values.quiet ? ["--quiet"] : [])], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        // Keep draining the request log so the server never blocks on a full pipe.
        server.stdout.off("data", onData).resume();
        resolve(match[1]);
      }
    };
    server.stdout.setEncoding("utf8").on("data", onData);
    server.on("exit", () => reject(new Error("server exited before listening")));
  });
  const minted = await fetch(`${url}/api/tokens`, { method: "POST", headers: { Authorization: `Bearer ${userKey}` } });
  const { sessionToken } = await minted.json();
  const body = JSON.stringify({ sessionToken });
  const headers = { Authorization: `Bearer ${partnerKey}`, "Content-Type": "application/json" };
  const check = await fetch(`${url}/api/verify`, { method: "POST", headers, body });
  if (check.status !== 200) throw new Error(`verify answered ${check.status} before the run`);

  // autocannon's own histogram keeps whole milliseconds; sub-millisecond
  // answers need the raw per-response times to give meaningful percentiles.
  const times = [];
  const instance = autocannon({
    url: `${url}/api/verify`,
    method: "POST",
    headers,
    body,
    connections: Number(values.connections),
    duration: Number(values.duration),
  });
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === 200) times.push(responseTime);
  });
  const result = await instance;
  const sorted = Float64Array.from(times).sort();
  const at = (q) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3));
  const average = Number((sorted.reduce((sum, value) => sum + value, 0) / sorted.length).toFixed(3));
  const non2xx = result.non2xx + result.errors + result.timeouts;
  console.log(
    JSON.stringify(
      {
        connections: result.connections,
        durationSeconds: result.duration,
        requestLog: !values.quiet,
        requestsPerSecond: { average: result.requests.average, p50: result.requests.p50 },
        latencyMs: { average, p50: at(0.5), p90: at(0.9), p99: at(0.99), p99_9: at(0.999), max: at(1) },
        totalRequests: result.requests.total,
        failures: non2xx,
      },
      null,
      2,
    ),
  );
  if (non2xx > 0) process.exitCode = 1;
} finally {
  server?.kill("SIGTERM");
  await fs.rm(dataDir, { recursive: true, force: true });
}
