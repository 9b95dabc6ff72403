import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/notes/cursor";
import { useNotesStack } from "@/tests/helpers/notes-app";
import { rawRequest as send } from "@/tests/helpers/raw-http";

/** One request as raw bytes, for targets and headers fetch will not send; the status line and body. */
function rawRequest(url: string, head: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const [headers = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(headers.slice(9, 12)), headers, body });
    });
    socket.write(`${head}\r\nHost: x\r\nConnection: close\r\n\r\n`);
  });
}

/** A chunked body's data; throws where the framing is cut short. */
function dechunk(framed: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = framed.indexOf("\r\n", at);
    if (lineEnd === -1) throw new Error(`chunked body cut short at byte ${at}`);
    const size = Number.parseInt(framed.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    if (lineEnd + 2 + size > framed.length) throw new Error(`chunked body cut short at byte ${framed.length}`);
    parts.push(framed.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

// These answers come before any data is read: one database kind is enough.
describe("hostile requests are the caller's error, as JSON", () => {
  const stack = useNotesStack("pglite", { users: 3 });

  it.each([
    ["a path with broken percent-encoding", "GET /api/notes/%E0%A4%A HTTP/1.1", 400, "Malformed URL: the path has invalid percent-encoding"],
    ["dot segments", "POST /api/%2e%2e HTTP/1.1", 400, "Malformed URL: the path has dot segments"],
    ["an unknown method", "TRACE /api/notes HTTP/1.1", 405, "Method TRACE not allowed; use GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"],
    ["a target that is not a path", "GET * HTTP/1.1", 400, "Malformed request target: expected a path"],
    ["a target over 8 KiB", `GET /api//${"x".repeat(9000)} HTTP/1.1`, 414, "Request target must be at most 8192 characters"],
    ["headers over the limit", `GET /api/notes HTTP/1.1\r\nx-session-token: ${"a".repeat(20_000)}`, 431, "Request headers are too large"],
    ["a request Node cannot parse", "GET /api/notes HTTP/1.1\r\nbad header line", 400, "Malformed HTTP request"],
  ])("%s", async (_, head, status, error) => {
    const res = await rawRequest(stack.app.url, head);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body)).toEqual({ error });
    expect(res.headers).toMatch(/X-Request-Id: [\w-]+/i);
  });

  it("an answer given before the body has arrived closes its connection, so a keep-alive client's next request is answered", async () => {
    // Node's agent reuses a connection as soon as the body is handed to the kernel. Kept
    // alive behind an unread body, the next request was never read, and was reset when the
    // idle connection timed out.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const early = await send(`${stack.app.url}/api/notes`, { agent, method: "POST", headers: { "content-type": "application/json" }, body: Buffer.alloc(512 * 1024, 0x61) });
      expect(early.status).toBe(401);
      expect(early.headers.connection).toBe("close");
      expect(await send(`${stack.app.url}/api`, { agent })).toMatchObject({ status: 401, reused: false });
      // Other connections stay open for the next request.
      expect(await send(`${stack.app.url}/api`, { agent })).toMatchObject({ status: 401, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("a large answer given before the body has arrived reaches the client whole before the connection closes", async () => {
    const { hostname, port } = new URL(stack.app.url);
    const token = stack.freshUser().token();
    const socket = net.connect({ host: hostname, port: Number(port) });
    await new Promise((resolve) => socket.once("connect", resolve));
    // The client is slow to read: most of the answer waits on the server's side while the body keeps arriving.
    socket.pause();
    socket.write(`GET /api/openapi.json HTTP/1.1\r\nHost: x\r\nx-session-token: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`);
    socket.write(Buffer.alloc(1024 * 1024, 0x61));
    const chunks: Buffer[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("end", resolve);
      socket.on("error", reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.resume();
    await ended;
    socket.destroy();
    const data = Buffer.concat(chunks);
    const headEnd = data.indexOf("\r\n\r\n");
    const head = data.subarray(0, headEnd).toString("latin1");
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/^connection: close$/im);
    expect(head).toMatch(/^transfer-encoding: chunked$/im);
    const whole = await fetch(`${stack.app.url}/api/openapi.json`, { headers: { "x-session-token": token } });
    expect(dechunk(data.subarray(headEnd + 4)).toString("utf8")).toBe(await whole.text());
  });

  it("NUL in search or any other query parameter: 400 Invalid query parameters naming it", async () => {
    const user = stack.freshUser();
    for (const query of ["search=a%00b", "x=%00", "limit=5&offset=0&search=%00"]) {
      const res = await stack.api(`/api/notes?${query}`, { token: user.token() });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Invalid query parameters");
      expect(Object.values(res.body.details.fieldErrors)).toEqual([["Must not contain NUL characters or unpaired surrogates"]]);
    }
  });

  it("forged cursors: 400 Invalid query parameters", async () => {
    const user = stack.freshUser();
    const id = "0b6e2f0e-1c1a-4c1e-9c1a-0b6e2f0e1c1a";
    for (const updatedAt of ["1", "May 5", "2020-02-31T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z"]) {
      const res = await stack.api(`/api/notes?cursor=${encodeCursor({ updatedAt, id })}`, { token: user.token() });
      expect(res.status, updatedAt).toBe(400);
      expect(res.body.details.fieldErrors.cursor).toEqual(["Not a cursor from a previous page's nextCursor"]);
    }
    expect((await stack.api(`/api/notes?cursor=${encodeCursor({ updatedAt: "2026-01-01T00:00:00.000Z", id })}`, { token: user.token() })).status).toBe(200);
  });

  it("every API response carries X-Request-Id, a plain one of the caller's is kept", async () => {
    const fresh = await fetch(`${stack.app.url}/api/notes`);
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${stack.app.url}/api/notes`, { headers: { "x-request-id": "lb-1234.5" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-1234.5");
    const replaced = await fetch(`${stack.app.url}/api/notes`, { headers: { "x-request-id": "../../etc/passwd" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("GET /api/health: 200 without a token when the database answers; other methods 405", async () => {
    const res = await stack.api("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    const post = await stack.api("/api/health", { method: "POST", json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });
});
