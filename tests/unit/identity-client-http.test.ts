import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { verifyDetailed } from "@/lib/identity/client";

// The verify client against real sockets (identity-client.test.ts answers
// through msw, which never opens one): connection reuse, a service that hangs,
// an answer too long to read, a connection closed under the client.

const NETWORK_ERROR = { ok: false, error: "Network error: cannot reach API", status: null };

type Listening = { url: string; connections: () => number };

async function listen(server: net.Server): Promise<Listening> {
  let connections = 0;
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        (server as http.Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

/** An identity service that answers every verify with `answer`. */
function serve(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Listening> {
  return listen(http.createServer((req, res) => req.resume().on("end", () => answer(req, res))));
}

const sockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

describe("verifyDetailed over HTTP", () => {
  it("sends the contract's request and reuses one kept-alive connection for calls one after another", async () => {
    const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];
    const service = await listen(
      http.createServer((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString()));
        req.on("end", () => {
          seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers["content-type"], body });
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ email: "ada@example.com" }));
        });
      }),
    );
    for (let i = 0; i < 5; i += 1) {
      await expect(verifyDetailed("pk_live_1", `st_${i}`, service.url)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    }
    expect(seen[0]).toEqual({ method: "POST", url: "/api/verify", auth: "Bearer pk_live_1", type: "application/json", body: '{"sessionToken":"st_0"}' });
    expect(seen).toHaveLength(5);
    expect(service.connections()).toBe(1);
  });

  it("gives up on a service that accepts the connection and never answers, within the timeout", async () => {
    const service = await listen(net.createServer((socket) => sockets.push(socket)));
    const started = performance.now();
    await expect(verifyDetailed("pk", "st", service.url, { timeoutMs: 150 })).resolves.toEqual(NETWORK_ERROR);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1000);
  });

  it("gives up on an answer whose body stalls after its headers, within the timeout", async () => {
    const service = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"email":');
    });
    await expect(verifyDetailed("pk", "st", service.url, { timeoutMs: 150 })).resolves.toEqual(NETWORK_ERROR);
  });

  it("does not read an answer longer than 64 KiB, whether it says its length or not", async () => {
    const huge = JSON.stringify({ email: "ada@example.com", padding: "x".repeat(100_000) });
    const sized = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(huge));
    await expect(verifyDetailed("pk", "st", sized.url)).resolves.toEqual({ ok: false, error: "identity service returned no email", status: 200 });
    const chunked = await serve((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      for (let i = 0; i < 100; i += 1) res.write("x".repeat(1024));
      res.end();
    });
    await expect(verifyDetailed("pk", "st", chunked.url)).resolves.toEqual({ ok: false, error: "identity service answered 500", status: 500 });
  });

  it("sends the call again on a new connection when a kept-alive one was closed before it answered", async () => {
    // A minimal HTTP server: the first request of each connection is answered
    // and the connection kept; a second one on it is dropped unanswered, as a
    // service closing an idle connection at the moment it is reused would.
    const service = await listen(
      net.createServer((socket) => {
        sockets.push(socket);
        let requests = 0;
        socket.on("data", (chunk: Buffer) => {
          if (!chunk.toString().includes("sessionToken")) return;
          requests += 1;
          if (requests > 1) return void socket.destroy();
          const body = JSON.stringify({ email: "ada@example.com" });
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
        });
      }),
    );
    await expect(verifyDetailed("pk", "st", service.url)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    await expect(verifyDetailed("pk", "st", service.url)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    expect(service.connections()).toBe(2);
  });

  it("answers the network error when nothing listens, the URL is not one, or Node refuses the key as a header", async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(verifyDetailed("pk", "st", `http://127.0.0.1:${port}`, { timeoutMs: 1000 })).resolves.toEqual(NETWORK_ERROR);
    await expect(verifyDetailed("pk", "st", "not a url")).resolves.toEqual(NETWORK_ERROR);
    // Refused before anything is sent; the outcome carries only the contract's text, never Node's message that names the header.
    const service = await serve((_req, res) => res.end());
    await expect(verifyDetailed("pk_secret\r\nX-Injected: 1", "st", service.url)).resolves.toEqual(NETWORK_ERROR);
    expect(service.connections()).toBe(0);
  });
});
