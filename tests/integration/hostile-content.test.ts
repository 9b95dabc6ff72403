import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteMarkdown } from "@/lib/body/markdown";
import { ERRORS } from "@/lib/errors";
import { createUser } from "@/lib/users/mutations";
import { isAlive, waitFor } from "@/scripts/lib/processes";
import { apiClient, type ApiResponse } from "@/tests/helpers/api-client";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { startFakeIdentity } from "@/tests/helpers/fake-identity";
import { HOSTILE_CONTENT, HOSTILE_MARKDOWN } from "@/bench/hostile-content";
import { startNotesStack, useNotesStack, type NotesStack, type SeededUser } from "@/tests/helpers/notes-app";
import { startTestApp } from "@/tests/helpers/test-app";
import { createTestDatabase } from "@/tests/helpers/test-db";

// A budget of 1 s of CPU per conversion, a fifth of the default: every hostile
// body must be converted or refused within it. The wait for a free worker is
// not under test (a loaded machine takes long to replace a killed worker): no
// 503 here.
const BUDGET_ENV = { CONVERSION_TIMEOUT_MS: "1000", CONVERSION_QUEUE_TIMEOUT_MS: "300000" };
// A body the converter (micromark, mdast-util-to-markdown) cannot finish within the worker's
// budgets is refused by them: a 422 naming the time or the memory budget.
const BUDGET_ERROR = /^(Markdown|Note) is too expensive to convert: over the (\d+ MB memory|\d+ s time) budget per conversion$/;
// A liveness bound, not a latency target: before conversions left the request
// thread, one hostile body froze every request for 20 s and more.
const CANARY_STALL_MS = 15_000;
// A reused keep-alive connection the server closed at that moment fails a
// request without the server being at fault; a few over the run are allowed.
const CANARY_FAILURES_ALLOWED = 3;

type Canary = { successes(): number; failures(): string[]; answersAgain(): Promise<void>; stop(): Promise<void> };

/** Reads a small note over and over, in parallel with everything else, counting answers. */
function startCanary(stack: NotesStack, user: SeededUser, id: string): Canary {
  let ok = 0;
  const failed: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const res = await fetch(`${stack.app.url}/api/notes/${id}`, {
          headers: { "x-session-token": user.token() },
          signal: AbortSignal.timeout(CANARY_STALL_MS),
        });
        await res.arrayBuffer();
        if (res.status === 200) ok += 1;
        else failed.push(`status ${res.status}`);
      } catch (err) {
        failed.push(`${String(err)} (${String((err as { cause?: unknown }).cause)})`);
      }
    }
  })();
  return {
    successes: () => ok,
    failures: () => failed,
    async answersAgain() {
      const target = ok + 2;
      await waitFor(() => ok >= target, { timeoutMs: 2 * CANARY_STALL_MS, intervalMs: 20, message: () => `two more canary answers (failures: ${failed.join("; ")})` });
      expect(failed.length, failed.join("\n")).toBeLessThanOrEqual(CANARY_FAILURES_ALLOWED);
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * Conversions shed under load, or the account's other write still under way
 * past the account's bound: the machine is busy, not the body refused (a 503
 * a client retries after Retry-After).
 */
const BUSY_ERRORS = [ERRORS.CONVERSIONS_BUSY.text, ERRORS.CONVERSION_SLOWED.text, ERRORS.ACCOUNT_WRITES_BUSY.text];

/**
 * A 2xx with the expected status, a JSON 4xx in the contract's shape naming
 * what was refused, or, on a loaded machine, the conversions' 503 with
 * Retry-After (two full runs at once produced it: the product's answer to
 * load, not a flake).
 */
function expectAnswer(res: ApiResponse, success: number, field: "content" | "contentMarkdown"): boolean {
  expect([success, 400, 422, 503], res.text.slice(0, 300)).toContain(res.status);
  if (res.status === success) return true;
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  if (res.status === 503) {
    expect(BUSY_ERRORS).toContain(res.body.error);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  } else if (res.status === 400) {
    expect(res.body.error).toBe("Invalid request body");
    expect(res.body.details.fieldErrors[field]).toEqual([expect.any(String)]);
  } else {
    expect(res.body.error).toMatch(BUDGET_ERROR);
  }
  return false;
}

describe.each(TEST_DB_KINDS)("hostile note bodies (%s)", (kind) => {
  let stack: NotesStack;
  let canary: Canary;

  beforeAll(async () => {
    stack = await startNotesStack(kind, { users: 40, env: BUDGET_ENV });
    const reader = stack.freshUser();
    const small = await stack.api("/api/notes", { method: "POST", token: reader.token(), json: { title: "Canary", content: [], contentText: "A small note." } });
    expect(small.status).toBe(201);
    canary = startCanary(stack, reader, small.body.note.id);
  }, 300_000);
  afterAll(async () => {
    await canary?.stop();
    await stack?.stop();
  });

  /** Sends `body` as a create and, at the same time, as an update of another note; then reads what was written as Markdown. */
  async function sendEverywhere(title: string, field: "content" | "contentMarkdown", value: string) {
    // content is given as JSON text: some of it is too deep for JSON.stringify.
    const body = field === "content" ? `{"content":${value}}` : JSON.stringify({ contentMarkdown: value });
    const withTitle = `{"title":${JSON.stringify(title)},${body.slice(1)}`;
    const json = { "content-type": "application/json" };
    const user = stack.freshUser();
    const target = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Target", contentMarkdown: "Before the update." } });
    expect(target.status).toBe(201);
    const id = target.body.note.id as string;
    const [created, updated] = await Promise.all([
      stack.api("/api/notes", { method: "POST", token: user.token(), headers: json, raw: withTitle }),
      stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), headers: { ...json, "if-match": target.headers.get("etag")! }, raw: body }),
    ]);
    const createdOk = expectAnswer(created, 201, field);
    const updatedOk = expectAnswer(updated, 200, field);

    // Nothing half-written: a refused create leaves no note, a refused update the note as it was.
    const list = await stack.api("/api/notes", { token: user.token() });
    expect(list.body.total).toBe(createdOk ? 2 : 1);
    const after = await stack.api(`/api/notes/${id}`, { token: user.token() });
    if (!updatedOk) {
      expect(after.body.note).toEqual(target.body.note);
      expect(after.headers.get("etag")).toBe(target.headers.get("etag"));
    } else {
      expect(after.headers.get("etag")).toBe('"v2"');
    }

    // Read as Markdown: what was stored at write time, so a read and nothing more.
    const reads = [stack.api(`/api/notes/${id}?format=markdown`, { token: user.token() })];
    if (createdOk) reads.push(stack.api(`/api/notes/${created.body.note.id}`, { token: user.token(), headers: { accept: "text/markdown" } }));
    for (const read of await Promise.all(reads)) {
      expect(read.status, read.text.slice(0, 200)).toBe(200);
      expect(read.headers.get("content-type")).toMatch(/^text\/markdown/);
    }
    expect((await reads[0]!).text.startsWith("# Target\n")).toBe(true);
    if (createdOk) expect((await reads[1]!).text.startsWith(noteMarkdown(title, ""))).toBe(true);

    // The rest of the service kept answering throughout, and the server is still up.
    await canary.answersAgain();
    expect(isAlive(stack.app.pid)).toBe(true);
    return { created, updated };
  }

  it.each(Object.entries(HOSTILE_MARKDOWN))("contentMarkdown of %s: create, update and Markdown read answer 2xx or a JSON 4xx", async (name, markdown) => {
    expect(markdown.length).toBeLessThanOrEqual(100_000);
    await sendEverywhere(name, "contentMarkdown", markdown);
  });

  it.each(Object.entries(HOSTILE_CONTENT))("content of %s: create, update and Markdown read answer 2xx or a JSON 4xx", async (name, content) => {
    const { created, updated } = await sendEverywhere(name, "content", content);
    if (name.startsWith("JSON nested")) {
      // Refused by the depth limit before anything else looks at it.
      for (const res of [created, updated]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "Invalid request body", details: { formErrors: [], fieldErrors: { content: ["Content may nest at most 100 levels deep"] } } });
      }
    }
  });

  it("the next conversion works after every hostile body, and the server never runs out of memory", async () => {
    const user = stack.freshUser();
    const next = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Next", contentMarkdown: "- [x] still *working*" } });
    expect(next.status).toBe(201);
    expect(next.body.note.content[0].type).toBe("checkListItem");
    expect((await stack.api(`/api/notes/${next.body.note.id}?format=markdown`, { token: user.token() })).text).toBe("# Next\n\n* [x] still *working*\n");
    // A worker over its heap budget is killed and logged (earlier cases may do
    // that, and answer 422); the server process itself must never run out.
    expect(stack.app.output()).not.toMatch(/FATAL ERROR/);
  });

  it("get_note over MCP reads the stored Markdown", async () => {
    const user = stack.freshUser();
    const created = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Via MCP", contentMarkdown: "| a | b |\n| --- | --- |\n| 1 | 2 |" } });
    const res = await fetch(`${stack.app.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-session-token": user.token() },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_note", arguments: { id: created.body.note.id } } }),
    });
    const text = await res.text();
    const message = JSON.parse(text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: "))!.slice(6));
    expect(message.result.structuredContent.markdown).toBe((await stack.api(`/api/notes/${created.body.note.id}?format=markdown`, { token: user.token() })).text);
    expect(message.result.structuredContent.version).toBe(1);
  });
});

describe.each(TEST_DB_KINDS)("a conversion over its time budget (%s)", (kind) => {
  // The smallest budget allowed, so that a body the converter takes about half
  // a second of CPU over (alternating emphasis markers) goes over it.
  const stack = useNotesStack(kind, { users: 2, env: { CONVERSION_TIMEOUT_MS: "100", CONVERSION_QUEUE_TIMEOUT_MS: "300000" } });

  it("answers 422 naming the budget, and the next conversion works", async () => {
    const user = stack.freshUser();
    const slow = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Slow", contentMarkdown: HOSTILE_MARKDOWN["alternating emphasis markers"] } });
    expect(slow.status, slow.text).toBe(422);
    expect(slow.body).toEqual({ error: "Markdown is too expensive to convert: over the 0.1 s time budget per conversion" });
    const next = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Next", contentMarkdown: "- [x] still *working*" } });
    expect(next.status).toBe(201);
    expect(next.body.note.content[0].type).toBe("checkListItem");
    expect((await stack.api(`/api/notes/${next.body.note.id}?format=markdown`, { token: user.token() })).text).toBe("# Next\n\n* [x] still *working*\n");
    expect(stack.app.output()).not.toMatch(/FATAL ERROR/);
  });
});

describe.each(TEST_DB_KINDS)("notes written before Markdown was stored (%s)", (kind) => {
  it("are rendered on their first Markdown read, under the budget, and the result is stored", async () => {
    const identity = await startFakeIdentity();
    const database = await createTestDatabase(kind);
    const blocks = [{ type: "paragraph", props: {}, content: [{ type: "text", text: "Written long ago", styles: { bold: true } }], children: [] }];
    const seeded = await database.withDb(async (db) => {
      const user = await createUser(db, { email: "legacy@example.com" });
      // As the rows were before the column existed: no stored Markdown.
      const plain = await db.note.create({ data: { userId: user.id, title: "Old", content: blocks, contentText: "Written long ago" } });
      const table = await db.note.create({ data: { userId: user.id, title: "Old table", content: JSON.parse(HOSTILE_CONTENT["a table of 3,000 rows"]!) as object, contentText: "" } });
      const odd = await db.note.create({ data: { userId: user.id, title: "Odd", content: { any: "json" }, contentText: "its plain text" } });
      return { email: user.email, ids: [plain.id, table.id, odd.id] };
    });
    const app = await startTestApp({ DATABASE_URL: database.url, IDENTITY_API_URL: identity.url, IDENTITY_PARTNER_KEY: identity.partnerKey, ...BUDGET_ENV });
    try {
      const api = apiClient(app.url);
      const token = () => identity.tokenFor(seeded.email);
      const [plain, table, odd] = seeded.ids.map((id) => () => api(`/api/notes/${id}?format=markdown`, { token: token() }));
      const first = await plain!();
      expect(first.status).toBe(200);
      expect(first.text).toBe("# Old\n\n**Written long ago**\n");
      expect(first.headers.get("etag")).toBe('"v1"');
      expect((await plain!()).text).toBe(first.text);
      const big = await table!();
      expect([200, 422], big.text.slice(0, 200)).toContain(big.status);
      if (big.status === 422) expect(big.body.error).toMatch(BUDGET_ERROR);
      expect((await odd!()).text).toBe("# Odd\n\nits plain text\n");
    } finally {
      await app.stop();
    }
    const stored = await database.withDb((db) => db.note.findUniqueOrThrow({ where: { id: seeded.ids[0] }, select: { contentMarkdown: true, version: true } }));
    expect(stored).toEqual({ contentMarkdown: "**Written long ago**", version: 1 });
    await identity.close();
    await database.drop();
  });
});
