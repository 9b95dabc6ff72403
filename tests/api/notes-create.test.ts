import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack } from "@/tests/helpers/notes-app";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(TEST_DB_KINDS)("POST /api/notes (%s)", (kind) => {
  const stack = useApiStack(kind);

  it("creates a note: 201 with { note }, trimmed title, defaults, equal timestamps", async () => {
    const user = stack.freshUser();
    const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "  Groceries  " } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["note"]);
    const { note } = res.body;
    expect(note).toEqual({
      id: expect.stringMatching(UUID),
      title: "Groceries",
      content: [],
      contentText: "",
      pinned: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: note.createdAt,
      tags: [],
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("stores content JSON and contentText as given", async () => {
    const user = stack.freshUser();
    const content = [
      { id: "b1", type: "heading", props: { level: 1 }, content: [{ type: "text", text: "Plan", styles: {} }], children: [] },
      { id: "b2", type: "paragraph", content: [{ type: "text", text: "ünïcödé ✓ \"quoted\"", styles: { bold: true } }], children: [] },
    ];
    const res = await stack.api("/api/notes", {
      method: "POST",
      token: user.token(),
      json: { title: "Plan", content, contentText: "Plan ünïcödé ✓" },
    });
    expect(res.status).toBe(201);
    expect(res.body.note.content).toEqual(content);
    expect(res.body.note.contentText).toBe("Plan ünïcödé ✓");
    const read = await stack.api(`/api/notes/${res.body.note.id}`, { token: user.token() });
    expect(read.body.note).toEqual(res.body.note);
  });

  it("accepts a 500-character title and rejects 501 characters", async () => {
    const user = stack.freshUser();
    const ok = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "a".repeat(500) } });
    expect(ok.status).toBe(201);
    expect(ok.body.note.title).toHaveLength(500);
    // Trimming comes first: 500 characters inside spaces still fit.
    const padded = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: `  ${"b".repeat(500)}  ` } });
    expect(padded.status).toBe(201);
    const long = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "a".repeat(501) } });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("Invalid request body");
    expect(long.body.details.fieldErrors.title).toBeDefined();
  });

  it.each([
    ["title missing", {}],
    ["title empty", { title: "" }],
    ["title only whitespace", { title: "   " }],
    ["title not a string", { title: 42 }],
    ["contentText not a string", { title: "x", contentText: 5 }],
    ["tagIds not UUIDs", { title: "x", tagIds: ["nope"] }],
    ["tagIds not an array", { title: "x", tagIds: "a" }],
    ["body an array", [{ title: "x" }]],
    ["body null", null],
  ])("400 Invalid request body with details when %s", async (_case, json) => {
    const user = stack.freshUser();
    const res = await stack.api("/api/notes", { method: "POST", token: user.token(), raw: JSON.stringify(json), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
  });

  it.each([
    ["not JSON", "title=hello"],
    ["truncated JSON", '{"title": "x"'],
    ["empty body", ""],
  ])("400 Request body must be valid JSON when %s", async (_case, raw) => {
    const user = stack.freshUser();
    const res = await stack.api("/api/notes", { method: "POST", token: user.token(), raw, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Request body must be valid JSON" });
  });

  it("415 without a JSON Content-Type, 413 over 1 MiB, and nothing is written", async () => {
    const user = stack.freshUser();
    const plain = await stack.api("/api/notes", { method: "POST", token: user.token(), raw: '{"title":"x"}', headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(415);
    expect(plain.body.error).toMatch(/Content-Type/);
    const missing = await stack.api("/api/notes", { method: "POST", token: user.token(), raw: '{"title":"x"}' });
    expect([400, 415]).toContain(missing.status);
    expect(typeof missing.body.error).toBe("string");
    const huge = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "big", contentText: "x".repeat(1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect(typeof huge.body.error).toBe("string");
    const list = await stack.api("/api/notes", { token: user.token() });
    expect(list.body.total).toBe(0);
  });

  it("assigns owned tags and ignores tag ids the user does not own", async () => {
    const owner = stack.freshUser();
    const other = stack.freshUser();
    const mine = (await stack.api("/api/tags", { method: "POST", token: owner.token(), json: { name: "work" } })).body.tag;
    const theirs = (await stack.api("/api/tags", { method: "POST", token: other.token(), json: { name: "secret" } })).body.tag;
    const res = await stack.api("/api/notes", {
      method: "POST",
      token: owner.token(),
      json: { title: "Tagged", tagIds: [mine.id, theirs.id, "00000000-0000-4000-8000-000000000000", mine.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body.note.tags).toEqual([{ id: mine.id, name: "work", createdAt: mine.createdAt }]);
  });

  it("a created note is found by a search for its title or contentText, for the same user only", async () => {
    const user = stack.freshUser();
    const other = stack.freshUser();
    await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Zephyrine plan", contentText: "quokkanine body" } });
    for (const search of ["zephyrine", "QUOKKANINE"]) {
      const mine = await stack.api(`/api/notes?search=${search}`, { token: user.token() });
      expect(mine.body.total).toBe(1);
      const theirs = await stack.api(`/api/notes?search=${search}`, { token: other.token() });
      expect(theirs.body).toEqual({ notes: [], total: 0 });
    }
  });
});
