import { randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import fc from "fast-check";

/** One request of the fuzz run: everything as the wire will carry it. */
export type FuzzRequest = {
  method: string;
  /** Request target, already encoded (may be deliberately malformed). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send as raw bytes on a socket: values Node's client would refuse to send. */
  raw?: boolean;
  /** Which kind of request this is, for the failure report and the bookkeeping. */
  kind: string;
};

export type FuzzResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** What the generators draw ids and tokens from. */
export type FuzzWorld = {
  /** Valid tokens of the user whose REST writes are counted. */
  restToken: string;
  /** Valid token of the user the MCP requests act as. */
  mcpToken: string;
  /** Token of an account whose email is not verified. */
  unverifiedToken: string;
  /** Token the identity service knows but no notes account has. */
  strangerToken: string;
  ownNoteIds: string[];
  ownTagIds: string[];
  /** The other user's ids: any request naming them must leave them untouched. */
  foreignNoteIds: string[];
  foreignTagIds: string[];
  /** A real cursor from a list page. */
  cursor: string;
};

const utf8 = (text: string) => Buffer.from(text, "utf8");

// Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those).
const pct = (text: string) => [...Buffer.from(text, "utf8")].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0").toUpperCase()}`)).join("");

// Strings from every plane, lone surrogates included, of bounded length.
const anyText = (maxLength = 40) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom("\u0000", "a\u0000b", "\uffff", "\ufeff", "\u202e", "%00", "' OR 1=1 --", "\\", "😀", "\u{10ffff}", "\u{e0001}") },
  );

const largeText = fc.integer({ min: 500, max: 20_000 }).chain((n) => fc.constantFrom("a", "é", "😀", "\u0000").map((c) => c.repeat(n)));

/** A path segment: valid, garbled or badly percent-encoded. */
const segment = fc.oneof(
  fc.uuid().map((id) => id),
  anyText(20).map(pct),
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join("")),
  fc.constantFrom("%E0%A4%A", "%", "%zz", "%C0%AF", "%ED%A0%80", "%00", "..%2f..%2f", "%2e%2e", "a%", "%FF%FE", "%F4%90%80%80", "null", "-1", "0", "1e309"),
  fc.stringMatching(/^[0-9a-fA-F-]{30,40}$/),
  fc.integer({ min: 1000, max: 9000 }).map((n) => "x".repeat(n)),
);

function pickId(world: FuzzWorld) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...world.ownNoteIds) },
    { weight: 2, arbitrary: fc.constantFrom(...world.foreignNoteIds) },
    { weight: 1, arbitrary: fc.constantFrom(...world.ownTagIds, ...world.foreignTagIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...world.ownNoteIds).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: segment },
  );
}

function pickTagId(world: FuzzWorld) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...world.ownTagIds) },
    { weight: 2, arbitrary: fc.constantFrom(...world.foreignTagIds) },
    { weight: 1, arbitrary: fc.constantFrom(...world.ownNoteIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: segment },
  );
}

// JSON values of any shape, including deep nesting built directly (fast-check's
// own depth stays small) and numbers JSON cannot round-trip.
const jsonValue = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: anyText(60) },
  { weight: 1, arbitrary: largeText },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 1500 }).map((depth) => deepArray(depth)) },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -0, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 0.1, -1, 1.5) },
);

function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { c: value };
  return value;
}

function deepContentText(depth: number): string {
  // A block tree nested `depth` levels through children, written as text: no recursion to build it.
  return `[${'{"type":"paragraph","children":['.repeat(depth)}${"]}".repeat(depth)}]`;
}

function noteBody(world: FuzzWorld) {
  return fc.record(
    {
      title: fc.oneof(anyText(80), fc.constant(""), fc.constant("  "), jsonValue, fc.integer().map((n) => `Note ${n}`)),
      contentText: fc.oneof(anyText(200), jsonValue),
      contentMarkdown: fc.oneof(
        anyText(200),
        fc.constantFrom("# h\n\n- a\n  - b\n", "```\ncode\n```", "> ".repeat(500) + "deep", "[a](javascript:alert(1))", "<script>alert(1)</script>", "|a|b|\n|-|-|\n|1|2|"),
        fc.integer({ min: 10, max: 1000 }).map((n) => "- ".repeat(n) + "x"),
        jsonValue,
      ),
      content: fc.oneof(
        fc.constant([{ type: "paragraph", content: [{ type: "text", text: "hi", styles: {} }] }]),
        fc.array(fc.record({ type: fc.constantFrom("paragraph", "heading", "table", "bogus", ""), content: jsonValue, props: jsonValue })),
        jsonValue,
      ),
      tagIds: fc.oneof(fc.array(pickTagId(world), { maxLength: 5 }), jsonValue),
    },
    { requiredKeys: [] },
  );
}

/** A targeted edit's body: operations of every kind (and none), with fields of the right and wrong types. */
function editBody(world: FuzzWorld) {
  const note = noteBody(world);
  const blockId = fc.oneof(anyText(40), pickId(world), jsonValue);
  const operation = fc.record(
    {
      op: fc.constantFrom("append", "prepend", "replace_text", "replace_section", "insert_before_section", "insert_after_section", "update_block", "move_block", "delete_block", "set_title", "add_tags", "remove_tags", "bogus"),
      markdown: fc.oneof(anyText(200), jsonValue),
      blocks: fc.oneof(fc.array(fc.record({ type: fc.constantFrom("paragraph", "heading", "bogus", ""), content: jsonValue, id: fc.oneof(anyText(20), jsonValue), children: jsonValue })), jsonValue),
      find: fc.oneof(anyText(20), fc.constant(""), jsonValue),
      replace: fc.oneof(anyText(40), jsonValue),
      expectedCount: fc.oneof(fc.integer({ min: -2, max: 5 }), jsonValue),
      heading: fc.oneof(anyText(20), jsonValue),
      level: fc.oneof(fc.integer({ min: -1, max: 8 }), jsonValue),
      keepHeading: jsonValue,
      blockId,
      before: blockId,
      after: blockId,
      to: fc.oneof(fc.constantFrom("start", "end", "middle"), jsonValue),
      type: fc.oneof(anyText(20), jsonValue),
      props: jsonValue,
      content: jsonValue,
      children: jsonValue,
      title: fc.oneof(anyText(80), jsonValue),
      tagIds: fc.oneof(fc.array(pickTagId(world), { maxLength: 3 }), jsonValue),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(fc.record({ operations: fc.oneof(fc.array(operation, { maxLength: 5 }), jsonValue) }, { requiredKeys: [] }), note, jsonValue);
}

/** A JSON body as bytes: valid, broken, mis-encoded. */
function bodyBytes(value: fc.Arbitrary<unknown>) {
  return fc.oneof(
    { weight: 40, arbitrary: value.map((v) => utf8(JSON.stringify(v) ?? "null")) },
    { weight: 4, arbitrary: value.map((v) => utf8((JSON.stringify(v) ?? "null").slice(0, -1))) },
    {
      weight: 5,
      arbitrary: fc.constantFrom(
        "",
        "{",
        "[",
        "{'title': 'x'}",
        '{"title": "x",}',
        '{"title": NaN}',
        '{"title": "\\ud800"}',
        '{"title": "\\u0000"}',
        '{"title": "x"} trailing',
        '{"__proto__": {"title": "x"}, "title": "y"}',
        '{"constructor": {"prototype": {"admin": true}}, "title": "z"}',
        "null",
        "true",
        "123",
        '"string"',
        "\ufeff{\"title\":\"bom\"}",
      ).map(utf8),
    },
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 100_000 }).map((depth) => utf8(`{"title":"deep","content":${deepContentText(Math.min(depth, 30_000))}}`)) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 200_000 }).map((depth) => utf8(`{"title":"deep","content":${"[".repeat(depth)}${"]".repeat(depth)}}`)) },
    { weight: 1, arbitrary: fc.constantFrom(900_000, 1_048_577, 1_300_000).map((n) => utf8(`{"title":"big","contentText":"${"a".repeat(n)}"}`)) },
  );
}

function tokenHeader(token: fc.Arbitrary<string>, world: FuzzWorld) {
  return fc.oneof(
    { weight: 8, arbitrary: token.map((t) => ({ "x-session-token": t })) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constant(world.unverifiedToken),
          fc.constant(world.strangerToken),
          fc.constant(`st_${randomUUID()}`),
          fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => s.replace(/[\0-\x1f\x7f]/g, "")),
          fc.integer({ min: 1000, max: 7000 }).map((n) => "t".repeat(n)),
          fc.constant(""),
        )
        .map((t) => ({ "x-session-token": t })),
    },
  );
}

const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "",
      "text/plain",
      "application/json; charset=latin1",
      "APPLICATION/JSON",
      "application/merge-patch+json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json;;;",
      "*/*",
      "text/markdown",
    ),
  },
);

const extraHeaders = fc.record(
  {
    accept: fc.constantFrom("application/json", "text/markdown", "*/*", "text/html", "text/markdown;q=0.9, application/json;q=0.1", "garbage;;q=x", ""),
    "if-match": fc.oneof(fc.constantFrom('"v1"', '"v2"', "*", 'W/"v1"', '"v999999999999999999"', '"v-1"', "garbage", '""', '"v1", "v2"'), fc.string({ unit: "binary-ascii", maxLength: 30 }).map((s) => s.replace(/[\0-\x1f\x7f]/g, ""))),
    "idempotency-key": fc.oneof(fc.uuid(), fc.string({ unit: "binary-ascii", maxLength: 300 }).map((s) => s.replace(/[\0-\x1f\x7f]/g, "")), fc.constant("")),
    "x-request-id": fc.oneof(fc.uuid(), fc.constant("../../etc/passwd"), fc.string({ unit: "binary-ascii", maxLength: 200 }).map((s) => s.replace(/[\0-\x1f\x7f]/g, ""))),
    origin: fc.constantFrom("http://evil.example", "null"),
    "content-encoding": fc.constantFrom("gzip", "br", "identity"),
    "transfer-encoding": fc.constant("chunked"),
    "x-forwarded-for": fc.constantFrom("1.2.3.4", "garbage, ::1"),
    range: fc.constant("bytes=0-10"),
    expect: fc.constant("100-continue"),
  },
  { requiredKeys: [] },
);

const methods = (main: string[]) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...main) },
    { weight: 3, arbitrary: fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS", "HEAD") },
    { weight: 1, arbitrary: fc.constantFrom("PROPFIND", "TRACE", "MKCOL", "SEARCH", "PURGE", "LINK", "QUERY") },
  );

function listQuery(world: FuzzWorld) {
  const value = fc.oneof(
    anyText(30).map(pct),
    segment,
    fc.integer({ min: -10, max: 1000 }).map(String),
    fc.constantFrom("1e3", "0x10", "2147483648", "9".repeat(400), "NaN", "-0", " 5", "5 ", "1.5", ""),
  );
  const cursor = fc.oneof(
    fc.constant(world.cursor),
    fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
    fc
      .tuple(fc.oneof(fc.constantFrom("1", "May 5", "2020-02-31T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z", "2024-01-01"), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())), fc.oneof(fc.uuid(), fc.constantFrom(...world.foreignNoteIds), anyText(10)))
      .map((pair) => Buffer.from(JSON.stringify(pair)).toString("base64url")),
    anyText(40).map(pct),
    fc.constant(world.cursor.slice(0, -2)),
  );
  return fc
    .array(
      fc.oneof(
        fc.tuple(fc.constantFrom("search", "tagId", "limit", "offset", "format", "cursor", "x", "search[]", "__proto__"), value),
        fc.tuple(fc.constant("cursor"), cursor),
        fc.tuple(fc.constant("tagId"), pickTagId(world)),
        fc.tuple(fc.constant("search"), fc.constantFrom("%00", "a%00b", "%ED%A0%80", "%F0%9F%98%80", "%25", "_", "%", "\\", "a".repeat(2000))),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&")}` : ""));
}

const mcpAccept = { accept: "application/json, text/event-stream" };

function mcpMessage(world: FuzzWorld) {
  const toolName = fc.constantFrom("search_notes", "get_note", "create_note", "update_note", "edit_note", "delete_note", "list_tags", "create_tag", "no_such_tool", "");
  const toolArgs = fc.oneof(
    fc.record({ id: pickId(world), query: anyText(20), title: anyText(40), contentMarkdown: anyText(100), tagIds: fc.array(pickTagId(world), { maxLength: 3 }), ifVersion: fc.integer(), name: anyText(20), limit: fc.integer(), cursor: anyText(20) }, { requiredKeys: [] }),
    jsonValue,
  );
  const message = fc.oneof(
    fc.record({ jsonrpc: fc.constant("2.0"), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.constant("tools/call"), params: fc.record({ name: toolName, arguments: toolArgs }, { requiredKeys: [] }) }),
    fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), method: fc.constantFrom("initialize", "tools/list", "ping", "resources/list", "prompts/list", "notifications/initialized", "nope"), params: fc.oneof(fc.constant({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } }), jsonValue) }, { requiredKeys: ["jsonrpc", "method"] }),
    fc.record({ jsonrpc: fc.oneof(fc.constant("1.0"), jsonValue), id: jsonValue, method: jsonValue, params: jsonValue }, { requiredKeys: [] }),
    jsonValue,
  );
  return fc.oneof({ weight: 4, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { maxLength: 6 }) });
}

/** Every route and method of the API, with hostile variations of each part. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const rest = tokenHeader(fc.constant(world.restToken), world);
  const mcp = tokenHeader(fc.constant(world.mcpToken), world);
  const build = (kind: string, method: fc.Arbitrary<string>, path: fc.Arbitrary<string>, token: typeof rest, body?: fc.Arbitrary<Buffer>, base: Record<string, string> = {}) =>
    fc
      .record({ method, path, token, body: body ? fc.option(body, { freq: 8, nil: undefined }) : fc.constant(undefined), contentType: contentTypes, extra: fc.option(extraHeaders, { freq: 3, nil: undefined }) })
      .map(({ method, path, token, body, contentType, extra }) => {
        const headers: Record<string, string> = { ...base, ...token };
        if (body !== undefined && contentType) headers["content-type"] = contentType;
        if (extra) Object.assign(headers, extra);
        if (headers["transfer-encoding"] && body === undefined) delete headers["transfer-encoding"];
        if (headers.expect) delete headers.expect; // Node's client waits for the 100 itself
        // Node frames a GET/HEAD/DELETE/OPTIONS body only when told its length.
        if (body !== undefined && !headers["transfer-encoding"]) headers["content-length"] = String(body.length);
        return { kind, method, path, headers, body } satisfies FuzzRequest;
      });

  const ids = pickId(world);
  const tagIds = pickTagId(world);
  return fc.oneof(
    { weight: 14, arbitrary: build("list", methods(["GET"]), listQuery(world).map((q) => `/api/notes${q}`), rest) },
    { weight: 10, arbitrary: build("create-note", methods(["POST"]), fc.constantFrom("/api/notes", "/api/notes/", "/api//notes", "/api/notes?"), rest, bodyBytes(noteBody(world))) },
    { weight: 10, arbitrary: build("note", methods(["GET", "GET", "HEAD"]), fc.tuple(ids, fc.oneof(fc.constant(""), fc.constantFrom("?format=markdown", "?format=json", "?format=blocks", "?format=%00", "?format=xml"))).map(([id, q]) => `/api/notes/${id}${q}`), rest) },
    { weight: 10, arbitrary: build("update-note", methods(["PATCH"]), ids.map((id) => `/api/notes/${id}`), rest, bodyBytes(noteBody(world))) },
    { weight: 5, arbitrary: build("delete-note", methods(["DELETE"]), ids.map((id) => `/api/notes/${id}`), rest) },
    { weight: 6, arbitrary: build("edit-note", methods(["POST"]), ids.map((id) => `/api/notes/${id}/edits`), rest, bodyBytes(editBody(world))) },
    { weight: 5, arbitrary: build("tags", methods(["GET", "POST"]), fc.constant("/api/tags"), rest, bodyBytes(fc.oneof(fc.record({ name: fc.oneof(anyText(70), jsonValue) }, { requiredKeys: [] }), jsonValue))) },
    { weight: 4, arbitrary: build("tag", methods(["DELETE", "PATCH", "GET"]), tagIds.map((id) => `/api/tags/${id}`), rest, bodyBytes(fc.record({ name: anyText(70) }, { requiredKeys: [] }))) },
    // No wait: a long poll would hold the run for its seconds.
    {
      weight: 3,
      arbitrary: build(
        "changes",
        methods(["GET"]),
        fc.constantFrom("", "?since=0", "?since=0&limit=500", "?since=abc", "?since=-1", "?since=99999999999999999999", "?since=%00", "?limit=0", "?wait=31", "?wait=x", "?since=1&since=2").map((q) => `/api/changes${q}`),
        rest,
      ),
    },
    {
      weight: 4,
      arbitrary: build(
        "attachment-upload",
        methods(["POST"]),
        fc.constantFrom("", "?name=a.png", "?name=", "?name=%00", "?name=..%2F..%2Fetc", `?name=${"x".repeat(300)}`).map((q) => `/api/attachments${q}`),
        rest,
        fc.oneof(fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)), fc.constant(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])), bodyBytes(jsonValue)),
      ),
    },
    { weight: 2, arbitrary: build("attachment", methods(["GET", "HEAD", "DELETE"]), ids.map((id) => `/api/attachments/${id}`), rest) },
    { weight: 3, arbitrary: build("index", methods(["GET"]), fc.constantFrom("/api", "/api/", "/api/me", "/api/openapi.json", "/api/health", "/api?x=%00"), rest, bodyBytes(jsonValue)) },
    { weight: 10, arbitrary: build("mcp", methods(["POST"]), fc.constantFrom("/api/mcp", "/api/mcp?x=1"), mcp, bodyBytes(mcpMessage(world)), mcpAccept) },
    { weight: 4, arbitrary: build("unknown", methods(["GET", "POST"]), fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/api/${parts.join("/")}`), rest, bodyBytes(jsonValue)) },
    { weight: 2, arbitrary: rawRequest(world) },
  );
}

/** Requests Node's client will not send: control bytes, invalid UTF-8 in the target, oversized headers, lying lengths. */
function rawRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "G ET", "get", "X".repeat(30)),
      path: fc.oneof(
        fc.constantFrom("/api/notes/\u00e9", "/api/notes?search=\u00ff\u00fe", "/api/notes/%E0%A4%A", "/api/notes?search=a%00", "/api/notes/\u0001", "*", "http://example.com/api/notes", "/api/notes#frag", "/api/notes?search=" + "a".repeat(20_000)),
        fc.constantFrom(...world.ownNoteIds).map((id) => `/api/notes/${id}`),
      ),
      header: fc.oneof(
        fc.constant(`x-session-token: ${world.restToken}`),
        fc.constant(`x-session-token: ${world.restToken}\u00e9\u0001`),
        fc.integer({ min: 8_000, max: 70_000 }).map((n) => `x-session-token: ${"a".repeat(n)}`),
        fc.integer({ min: 50, max: 300 }).map((n) => Array.from({ length: n }, (_, i) => `x-h${i}: ${"v".repeat(100)}`).join("\r\n")),
        fc.constant("bad header line"),
        fc.constant("content-length: -1"),
        fc.constant("content-length: 10\r\ncontent-length: 20"),
        fc.constant("transfer-encoding: chunked\r\ncontent-length: 3"),
      ),
      body: fc.oneof(fc.constant(""), fc.constant('{"title":"raw"}'), fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString("latin1"))),
    })
    .map(({ method, path, header, body }) => ({
      kind: "raw",
      raw: true,
      method,
      path,
      headers: { __raw: header, "content-type": "application/json" },
      body: Buffer.from(body, "latin1"),
    }));
}

/** Sends one request (node:http, or a raw socket for what Node refuses to send); rejects on a network error or after `timeoutMs`. */
export function sendFuzzRequest(base: URL, request: FuzzRequest, agent: http.Agent, timeoutMs: number): Promise<FuzzResponse> {
  if (request.raw) return sendRaw(base, request, timeoutMs);
  return new Promise((resolve, reject) => {
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.path, headers: request.headers, agent, timeout: timeoutMs });
    } catch {
      // Node's client refuses the method, target or a header: send the same bytes raw.
      sendRaw(base, request, timeoutMs).then(resolve, reject);
      return;
    }
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.end(request.body);
  });
}

function sendRaw(base: URL, request: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: base.hostname, port: Number(base.port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (err) => (chunks.length ? finish() : reject(err)));
    socket.on("end", finish);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    }
    const { __raw, ...headers } = request.headers;
    const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${base.host}`, "Connection: close"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (__raw) lines.push(__raw);
    if (!/content-length|transfer-encoding/i.test(__raw ?? "")) lines.push(`Content-Length: ${request.body?.length ?? 0}`);
    socket.write(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), request.body ?? Buffer.alloc(0)]));
  });
}

function parseRawResponse(data: Buffer): FuzzResponse {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`incomplete response: ${JSON.stringify(data.toString("latin1").slice(0, 200))}`);
  const [statusLine, ...headerLines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]);
  if (!status) throw new Error(`no status line: ${JSON.stringify(statusLine)}`);
  const headers: http.IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = data.subarray(end + 4);
  if (/chunked/i.test(String(headers["transfer-encoding"] ?? ""))) body = decodeChunked(body);
  return { status, headers, body };
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** What is wrong with a response, or null: no 5xx, and every error a JSON body with `error`. */
export function responseProblem(request: FuzzRequest, response: FuzzResponse): string | null {
  if (response.status >= 500) return `status ${response.status}`;
  if (response.status < 400 || request.method === "HEAD" || response.body.length === 0 && response.status === 405 && request.method === "OPTIONS") {
    return null;
  }
  const type = String(response.headers["content-type"] ?? "");
  if (!type.includes("json")) return `status ${response.status} with content-type ${JSON.stringify(type)}`;
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString("utf8"));
  } catch {
    return `status ${response.status} with a body that is not JSON`;
  }
  const error = (body as { error?: unknown } | null)?.error;
  // The MCP endpoint answers protocol errors with JSON-RPC's error object.
  const ok = typeof error === "string" || (request.path.startsWith("/api/mcp") && typeof error === "object" && error !== null);
  return ok ? null : `status ${response.status} without an error field`;
}

/** A request, shortened for a failure message. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body ? request.body.subarray(0, 160).toString("utf8") + (request.body.length > 160 ? `… (${request.body.length} bytes)` : "") : "";
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, v.length > 80 ? `${v.slice(0, 80)}… (${v.length})` : v]));
  return `${request.kind}: ${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(headers)} ${JSON.stringify(body)}`;
}
