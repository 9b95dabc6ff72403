import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { solidPng } from "@/tests/helpers/images";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

const LIMIT = 64 * 1024;

const MISSING_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";

describe.each(TEST_DB_KINDS)("attachments: POST /api/attachments, GET /api/attachments/{id} (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 12, env: { ATTACHMENT_MAX_BYTES: String(LIMIT) } });
  const connect = useMcpClients(() => stack.app.url);
  const png = solidPng(40, 30, [200, 40, 40]);

  const upload = (user: SeededUser | null, body: Buffer | string, type: string | null, query = "") =>
    fetch(`${stack.app.url}/api/attachments${query}`, {
      method: "POST",
      body: typeof body === "string" ? body : new Uint8Array(body),
      headers: { ...(user ? { "x-session-token": user.token() } : {}), ...(type ? { "content-type": type } : {}) },
    });
  const fetchAttachment = (user: SeededUser | null, url: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.app.url}${url}`, { headers: { ...(user ? { "x-session-token": user.token() } : {}), ...headers } });
  async function uploaded(user: SeededUser, body: Buffer | string, type: string | null, query = "") {
    const res = await upload(user, body, type, query);
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(201);
    return json.attachment as { id: string; url: string; markdown: string; contentType: string; size: number; name: string };
  }

  it("an image round trip: its owner gets the same bytes back, inline, unsniffable, sandboxed, with an ETag", async () => {
    const user = stack.freshUser();
    const attachment = await uploaded(user, png, "image/png", "?name=Screenshot%202026-11-24.png");
    expect(attachment).toMatchObject({ contentType: "image/png", size: png.length, name: "Screenshot 2026-11-24.png", url: `/api/attachments/${attachment.id}` });
    expect(attachment.markdown).toBe(`![Screenshot 2026-11-24.png](/api/attachments/${attachment.id})`);

    const res = await fetchAttachment(user, attachment.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''Screenshot%202026-11-24.png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await fetchAttachment(user, attachment.url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("is its owner's alone: another account, no session and an unknown id get nothing", async () => {
    const [owner, stranger] = [stack.freshUser(), stack.freshUser()];
    const attachment = await uploaded(owner, png, "image/png");
    const other = await fetchAttachment(stranger, attachment.url);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: "Attachment not found" });
    const anonymous = await fetchAttachment(null, attachment.url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Missing X-Session-Token header" });
    expect((await fetchAttachment(owner, `/api/attachments/${MISSING_ID}`)).status).toBe(404);
    const malformed = await fetchAttachment(owner, "/api/attachments/not-an-id");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "Invalid attachment id" });
  });

  it("text files are kept as downloads, with a Markdown link", async () => {
    const user = stack.freshUser();
    const attachment = await uploaded(user, "# Minutes\n\n- ship it\n", "text/markdown; charset=utf-8", "?name=minutes.md");
    expect(attachment).toMatchObject({ contentType: "text/markdown", name: "minutes.md", markdown: `[minutes.md](/api/attachments/${attachment.id})` });
    const res = await fetchAttachment(user, attachment.url);
    expect(res.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''minutes.md");
    expect(await res.text()).toBe("# Minutes\n\n- ship it\n");

    // A name with Markdown's syntax in it reads as written in the note the link goes into.
    const name = "émoji *bold* _x_ [draft] `v2` <b>&amp; ~~old~~.txt";
    const odd = await uploaded(user, "notes", "text/plain", `?name=${encodeURIComponent(name)}`);
    expect(odd.name).toBe(name);
    const note = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Files", contentMarkdown: odd.markdown } })).body.note;
    expect(note.content[0].content).toEqual([{ type: "link", href: odd.url, content: [{ type: "text", text: name, styles: {} }] }]);
  });

  it.each([
    ["HTML sent as a PNG", Buffer.from("<html><script>alert(1)</script></html>"), "image/png", 415, /^The file's bytes are not image\/png \(not an image\)/],
    ["a PNG sent as a JPEG", solidPng(2, 2, [0, 0, 0]), "image/jpeg", 415, /^The file's bytes are image\/png, not the image\/jpeg it was sent as$/],
    ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "image/svg+xml", 415, /^SVG images are not accepted/],
    ["binary bytes sent as text", Buffer.from([0x00, 0xff, 0x10, 0x80]), "text/plain", 415, /not UTF-8 text$/],
    ["an empty file", Buffer.alloc(0), "image/png", 400, /^The file is empty$/],
  ])("%s is refused with a message that says why, and nothing is stored", async (_, body, type, status, message) => {
    const res = await upload(stack.freshUser(), body, type);
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
  });

  it("an agent attaches over MCP and fetches it back with its token", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const result = await client.callTool({ name: "upload_attachment", arguments: { contentBase64: png.toString("base64"), contentType: "image/png", name: "chart.png" } });
    expect(result.isError ?? false).toBe(false);
    const { attachment } = result.structuredContent as { attachment: { url: string; markdown: string } };
    expect(attachment.markdown).toMatch(/^!\[chart\.png\]\(\/api\/attachments\/[0-9a-f-]{36}\)$/);
    const res = await fetchAttachment(user, attachment.url);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const lie = await client.callTool({ name: "upload_attachment", arguments: { contentBase64: Buffer.from("plain words").toString("base64"), contentType: "image/gif" } });
    expect(lie.isError).toBe(true);
  });
});
