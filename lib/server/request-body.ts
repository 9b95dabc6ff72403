import type { IncomingMessage } from "node:http";

/**
 * Reads a request body (as text, or bytes), never more than a byte limit: a declared
 * Content-Length over it fails before reading, and a body without one (chunked)
 * is counted while it streams, reading stopping at the first byte past the
 * limit. The app and the identity service both read bodies through it, so it
 * stays free of app-only imports; each maps BodyTooLargeError to its own 413.
 */

/** The body is over the reader's limit; nothing past the limit was read. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is over ${limitBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * A Node.js server's own request (`node:http`'s IncomingMessage): read as it
 * arrives, without the web Request, AbortSignal and stream a framework builds
 * around it, which on a small body cost more than the body.
 */
export type NodeRequest = Pick<IncomingMessage, "headers" | "on" | "off" | "pause">;

/** The body as UTF-8 text ("" when there is none); throws BodyTooLargeError past `limitBytes`. */
export async function readBodyText(request: Request | NodeRequest, limitBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, limitBytes));
}

/** The body's bytes (empty when there is none); throws BodyTooLargeError past `limitBytes`. */
export async function readBodyBytes(request: Request | NodeRequest, limitBytes: number): Promise<Buffer> {
  const declared = Number(isNodeRequest(request) ? request.headers["content-length"] : request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (isNodeRequest(request)) return readNodeBody(request, limitBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      // Not cancelled: that would end the connection before the 413 is sent. The
      // server closes it after the answer instead (scripts/lib/server.ts).
      reader.releaseLock();
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function isNodeRequest(request: Request | NodeRequest): request is NodeRequest {
  return typeof (request as NodeRequest).pause === "function";
}

/** readBodyBytes for a Node.js request: over the limit it stops reading (pauses) rather than destroying the connection under the 413. */
function readNodeBody(request: NodeRequest, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (finish: () => void) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("close", onClose);
      finish();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) return void chunks.push(chunk);
      request.pause();
      settle(() => reject(new BodyTooLargeError(limitBytes)));
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () => settle(() => reject(new Error("The request ended before its body did")));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}
