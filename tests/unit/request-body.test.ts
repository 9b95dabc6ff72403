import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readBodyText } from "@/lib/request-body";

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
