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

/** The body as UTF-8 text ("" when there is none); throws BodyTooLargeError past `limitBytes`. */
export async function readBodyText(request: Request, limitBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, limitBytes));
}

/** The body's bytes (empty when there is none); throws BodyTooLargeError past `limitBytes`. */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw new BodyTooLargeError(limitBytes);
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
