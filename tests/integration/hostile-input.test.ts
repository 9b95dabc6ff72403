import net from "node:net";
import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/notes/cursor";
import { useNotesStack } from "@/tests/helpers/notes-app";

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
