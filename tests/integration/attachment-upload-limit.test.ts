import http from "node:http";
import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { solidPng } from "@/tests/helpers/images";
import { useNotesStack } from "@/tests/helpers/notes-app";

const LIMIT = 64 * 1024;

/** A POST on a connection of its own, its body written in the chunks given (chunked without a content-length). */
const postOnNewConnection = (url: string, headers: Record<string, string>, chunks: Buffer[]) =>
  new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: Buffer.concat(parts).toString() }));
    });
    // The server may stop reading once it has answered: a write after that is not this test's failure.
    req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
    req.on("close", () => reject(new Error("the connection closed without an answer")));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });

// How the server cuts an upload off on its connection; the rest of the attachments' behaviour is in tests/api/attachments.test.ts.
describe.each(TEST_DB_KINDS)("attachments: an upload over the limit over HTTP (%s)", (kind) => {
  const stack = useNotesStack(kind, { users: 1, env: { ATTACHMENT_MAX_BYTES: String(LIMIT) } });
  const png = solidPng(40, 30, [200, 40, 40]);

  it("an upload over the limit is cut off with 413, declared or streamed, on a connection that is then closed; the server keeps serving", async () => {
    const user = stack.freshUser();
    const declared = await postOnNewConnection(`${stack.app.url}/api/attachments`, { "x-session-token": user.token(), "content-type": "text/plain", "content-length": String(LIMIT + 1) }, [Buffer.alloc(LIMIT + 1, 0x41)]);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error).toBe("The file is over the 64 KB limit");
    expect(declared.connection).toBe("close");
    // Chunked, without a Content-Length: counted while it streams.
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(16 * 1024, 0x42));
    const streamed = await postOnNewConnection(`${stack.app.url}/api/attachments`, { "x-session-token": user.token(), "content-type": "text/plain" }, chunks);
    expect(streamed.status).toBe(413);
    expect(streamed.connection).toBe("close");
    expect((await fetch(`${stack.app.url}/api/health`)).status).toBe(200);
    const after = await fetch(`${stack.app.url}/api/attachments`, { method: "POST", body: new Uint8Array(png), headers: { "x-session-token": user.token(), "content-type": "image/png" } });
    expect(after.status).toBe(201);
    expect((await after.json()).attachment.size).toBe(png.length);
  });
});
