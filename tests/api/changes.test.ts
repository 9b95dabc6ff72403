import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

type Change = { entity: "note" | "tag"; action: string; id: string; version?: number; at: string };
type Feed = { changes: Change[]; cursor: string; hasMore: boolean };

describe.each(TEST_DB_KINDS)("change feed: GET /api/changes and recent_changes (%s)", (kind) => {
  const stack = useApiStack(kind, { users: 20 });
  const connect = useMcpClients(() => stack.app.url);

  async function changes(user: SeededUser, query: string): Promise<Feed> {
    const res = await stack.api(`/api/changes${query}`, { token: user.token() });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }
  const cursorOf = async (user: SeededUser) => (await changes(user, "")).cursor;
  const call = (user: SeededUser, method: string, path: string, json?: unknown) => stack.api(path, { method, token: user.token(), json });
  const shape = (feed: Feed) => feed.changes.map((change) => [change.entity, change.action, change.id, change.version ?? null]);

  it("without since: the current cursor and nothing else; then every kind of change once, in order", async () => {
    const user = stack.freshUser();
    const start = await changes(user, "");
    expect(start).toEqual({ changes: [], cursor: expect.any(String), hasMore: false });

    const note = await stack.createNote(user, { title: "Plan", contentText: "first" });
    expect((await call(user, "PATCH", `/api/notes/${note.id}`, { title: "Plan B" })).status).toBe(200);
    expect((await call(user, "POST", `/api/notes/${note.id}/edits`, { operations: [{ op: "append", markdown: "more" }] })).status).toBe(200);
    expect((await call(user, "DELETE", `/api/notes/${note.id}`)).status).toBe(204);
    expect((await call(user, "POST", `/api/trash/${note.id}/restore`)).status).toBe(200);
    expect((await call(user, "DELETE", `/api/notes/${note.id}`)).status).toBe(204);
    expect((await call(user, "DELETE", `/api/trash/${note.id}`)).status).toBe(204);
    const tag = (await call(user, "POST", "/api/tags", { name: "work" })).body.tag;
    expect((await call(user, "PATCH", `/api/tags/${tag.id}`, { name: "office" })).status).toBe(200);
    expect((await call(user, "DELETE", `/api/tags/${tag.id}`)).status).toBe(204);

    const feed = await changes(user, `?since=${start.cursor}`);
    expect(shape(feed)).toEqual([
      ["note", "created", note.id, 1],
      ["note", "updated", note.id, 2],
      ["note", "updated", note.id, 3],
      ["note", "deleted", note.id, null],
      ["note", "restored", note.id, 3],
      ["note", "deleted", note.id, null],
      ["note", "purged", note.id, null],
      ["tag", "created", tag.id, null],
      ["tag", "updated", tag.id, null],
      ["tag", "deleted", tag.id, null],
    ]);
    expect(feed.hasMore).toBe(false);
    for (const change of feed.changes) expect(Date.parse(change.at)).not.toBeNaN();
    // Following from the answer's cursor: nothing new, the same cursor.
    expect(await changes(user, `?since=${feed.cursor}`)).toEqual({ changes: [], cursor: feed.cursor, hasMore: false });

    // Pages: limit and hasMore, each page continuing where the last ended.
    const first = await changes(user, `?since=${start.cursor}&limit=4`);
    expect(first.hasMore).toBe(true);
    const second = await changes(user, `?since=${first.cursor}&limit=6`);
    expect(second.hasMore).toBe(false);
    expect([...first.changes, ...second.changes]).toEqual(feed.changes);
  });

  it("a write that changes nothing (the same title, tags, pin and body as blocks, Markdown or text) answers the current version: no version, revision or change", async () => {
    const user = stack.freshUser();
    const tag = (await call(user, "POST", "/api/tags", { name: "kept" })).body.tag;
    const created = await call(user, "POST", "/api/notes", { title: "Same", contentMarkdown: "# Plan\n\n* [x] done\n\nSome *words*", tagIds: [tag.id], pinned: true });
    expect(created.status).toBe(201);
    const note = created.body.note;
    const start = await cursorOf(user);
    const markdown = (await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token() })).text;
    const writes: Record<string, unknown>[] = [
      { title: "Same", tagIds: [tag.id.toUpperCase()], pinned: true },
      { content: note.content },
      { contentMarkdown: "# Plan\n\n* [x] done\n\nSome *words*" },
      { contentMarkdown: markdown },
      { title: "Same", content: note.content, contentText: note.contentText },
    ];
    for (const json of writes) {
      const res = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json, headers: { "If-Match": '"v1"' } });
      expect(res.status, JSON.stringify(json)).toBe(200);
      expect(res.headers.get("etag")).toBe('"v1"');
      expect(res.body.note).toEqual(note);
    }
    expect(await changes(user, `?since=${start}`)).toEqual({ changes: [], cursor: start, hasMore: false });
    expect((await stack.api(`/api/notes/${note.id}/revisions`, { token: user.token() })).body.revisions.map((revision: { version: number }) => revision.version)).toEqual([1]);

    // One field that differs is a write like any other.
    const unpinned = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { pinned: false } });
    expect(unpinned.headers.get("etag")).toBe('"v2"');
    expect(shape(await changes(user, `?since=${start}`))).toEqual([["note", "updated", note.id, 2]]);
  });

  it("is the owner's alone: another account's changes never appear, and a cursor ahead of the account's is a 400", async () => {
    const [owner, other] = [stack.freshUser(), stack.freshUser()];
    const ownerStart = await cursorOf(owner);
    const otherStart = await cursorOf(other);
    const note = await stack.createNote(owner, { title: "Mine", contentText: "private" });
    expect((await changes(other, `?since=${otherStart}`)).changes).toEqual([]);
    expect(shape(await changes(owner, `?since=${ownerStart}`))).toEqual([["note", "created", note.id, 1]]);
    const ahead = await stack.api(`/api/changes?since=${Number(otherStart) + 50}`, { token: other.token() });
    expect(ahead.status).toBe(400);
    expect(ahead.body.error).toBe("Invalid query parameters");
    expect(ahead.body.details.fieldErrors.since[0]).toMatch(/ahead of your changes/);
  });

  it.each([
    ["since=abc", "since"],
    ["since=-1", "since"],
    ["since=1e3", "since"],
    ["since=0&limit=0", "limit"],
    ["since=0&limit=501", "limit"],
    ["since=0&wait=31", "wait"],
    ["since=0&wait=1.5", "wait"],
  ])("?%s is a 400 naming %s", async (query, field) => {
    const res = await stack.api(`/api/changes?${query}`, { token: stack.freshUser().token() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid query parameters");
    expect(Object.keys(res.body.details.fieldErrors)).toEqual([field]);
  });

  it("wait: a long poll answers once a change is committed, and with nothing (the same cursor) when none comes", async () => {
    const user = stack.freshUser();
    const cursor = await cursorOf(user);
    const polled = changes(user, `?since=${cursor}&wait=30`);
    const note = await stack.createNote(user, { title: "Wakes the poll", contentText: "x" });
    expect(shape(await polled)).toEqual([["note", "created", note.id, 1]]);

    const quiet = await changes(user, `?since=${(await polled).cursor}&wait=1`);
    expect(quiet).toEqual({ changes: [], cursor: (await polled).cursor, hasMore: false });
  });

  it("recent_changes over MCP answers what the REST feed answers", async () => {
    const user = stack.freshUser();
    const client = await connect(user.token());
    const start = (await client.callTool({ name: "recent_changes", arguments: {} })).structuredContent as Feed;
    expect(start.changes).toEqual([]);
    const note = await stack.createNote(user, { title: "Seen by MCP", contentText: "x" });
    const viaMcp = (await client.callTool({ name: "recent_changes", arguments: { since: start.cursor, limit: 10 } })).structuredContent as Feed;
    expect(viaMcp).toEqual(await changes(user, `?since=${start.cursor}&limit=10`));
    expect(shape(viaMcp)).toEqual([["note", "created", note.id, 1]]);
    const bad = await client.callTool({ name: "recent_changes", arguments: { since: "not a cursor" } });
    expect(bad.isError).toBe(true);
  });

  it("under 10 concurrent writers, a reader following the cursor sees every committed change exactly once", async () => {
    const user = stack.freshUser();
    const start = await cursorOf(user);
    const seen: Change[] = [];
    let cursor = start;
    let writing = true;
    const reader = (async () => {
      // Follows while the writers write, then once more after the last of them is done.
      for (let drained = false; !drained; ) {
        drained = !writing;
        for (let more = true; more; ) {
          const page = await changes(user, `?since=${cursor}&limit=7${writing ? "&wait=1" : ""}`);
          seen.push(...page.changes);
          cursor = page.cursor;
          more = page.hasMore;
        }
      }
    })();

    const committed: string[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, writer) => {
        const note = await stack.createNote(user, { title: `Writer ${writer}`, contentText: "0" });
        committed.push(`note created ${note.id} 1`);
        for (let step = 1; step <= 4; step += 1) {
          const res = await call(user, "POST", `/api/notes/${note.id}/edits`, { operations: [{ op: "append", markdown: `step ${step}` }] });
          expect(res.status).toBe(200);
          committed.push(`note updated ${note.id} ${step + 1}`);
        }
        const tag = await call(user, "POST", "/api/tags", { name: `writer-${writer}` });
        expect(tag.status).toBe(201);
        committed.push(`tag created ${tag.body.tag.id} -`);
        if (writer % 2 === 0) {
          expect((await call(user, "DELETE", `/api/notes/${note.id}`)).status).toBe(204);
          committed.push(`note deleted ${note.id} -`);
        }
      }),
    );
    writing = false;
    await reader;

    const described = seen.map((change) => `${change.entity} ${change.action} ${change.id} ${change.version ?? "-"}`);
    expect(new Set(described).size).toBe(described.length);
    expect([...described].sort()).toEqual([...committed].sort());
    // The database agrees: as many changes after the start as the feed gave, and the cursor is the newest.
    const all = await changes(user, `?since=${start}&limit=500`);
    expect(all.changes).toEqual(seen);
    expect(all.cursor).toBe(cursor);
  });
});
