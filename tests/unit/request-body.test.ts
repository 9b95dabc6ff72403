import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readBodyText } from "@/lib/server/request-body";

// A body without Content-Length, sent in pieces, as a chunked upload arrives; counts what was pulled.
function streamedRequest(pieces: string[], headers: Record<string, string> = {}): { request: Request; pulled: () => number } {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < pieces.length) controller.enqueue(encoder.encode(pieces[next++]));
      else controller.close();
    },
  }, { highWaterMark: 0 }); // pulled only when read
  const request = new Request("http://test.local/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled: () => next };
}

describe("readBodyText", () => {
  it("reads a body within the limit as UTF-8, the limit counting bytes", async () => {
    await expect(readBodyText(new Request("http://test.local/", { method: "POST", body: "é".repeat(5) }), 10)).resolves.toBe("ééééé");
    await expect(readBodyText(new Request("http://test.local/", { method: "POST", body: "é".repeat(6) }), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("answers an empty string for a request without a body", async () => {
    await expect(readBodyText(new Request("http://test.local/"), 10)).resolves.toBe("");
  });

  it("refuses a declared length over the limit without reading", async () => {
    const { request, pulled } = streamedRequest(["x"], { "content-length": "11" });
    await expect(readBodyText(request, 10)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled()).toBe(0);
  });

  it("stops reading an undeclared body at the first chunk past the limit", async () => {
    const { request, pulled } = streamedRequest(["12345", "67890", "1", "never read"]);
    await expect(readBodyText(request, 10)).rejects.toThrow(new BodyTooLargeError(10));
    expect(pulled()).toBe(3);
  });
});

/**
 * A real Node.js server whose handler reads each request's own body with
 * readBodyText (limit 10 bytes) and answers what came of it; `send` posts
 * pieces, writing each after the one before has been written.
 */
async function withNodeServer(run: (send: (pieces: string[], headers?: Record<string, string>) => Promise<{ status: number; body: string }>) => Promise<void>) {
  const server = http.createServer((req, res) => {
    readBodyText(req, 10).then(
      (text) => res.end(`read:${text}`),
      (err: unknown) => {
        res.statusCode = err instanceof BodyTooLargeError ? 413 : 500;
        res.setHeader("connection", "close");
        res.end(err instanceof Error ? err.message : String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run(
      (pieces, headers = {}) =>
        new Promise((resolve, reject) => {
          const req = http.request({ port, host: "127.0.0.1", method: "POST", headers, agent: false }, (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (body += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          const write = (i: number): void => {
            if (i === pieces.length) return void req.end();
            req.write(pieces[i], () => write(i + 1));
          };
          write(0);
        }),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("readBodyText on a Node.js server's own request", () => {
  it("reads a declared or a chunked body within the limit", async () => {
    await withNodeServer(async (send) => {
      expect(await send(["ééééé"], { "content-length": "10" })).toEqual({ status: 200, body: "read:ééééé" });
      expect(await send(["12345", "67890"])).toEqual({ status: 200, body: "read:1234567890" });
      expect(await send([])).toEqual({ status: 200, body: "read:" });
    });
  });

  it("refuses a declared length over the limit, and a chunked body at its first byte past it, and still answers", async () => {
    await withNodeServer(async (send) => {
      expect(await send(["x".repeat(11)], { "content-length": "11" })).toEqual({ status: 413, body: "Request body is over 10 bytes" });
      expect(await send(["12345", "67890", "1", "x".repeat(64 * 1024)])).toEqual({ status: 413, body: "Request body is over 10 bytes" });
    });
  });
});
