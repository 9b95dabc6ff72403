import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { idempotent } from "@/lib/idempotency/idempotency";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";
import { createMemoryDb } from "@/tests/helpers/test-db";

const REUSED = "Idempotency-Key was already used with a different request body; use a new key for a new request";

describe.each(TEST_DB_KINDS)("Idempotency-Key on creates (%s)", (kind) => {
  const stack = useApiStack(kind);

  const post = (user: SeededUser, path: string, json: unknown, key?: string) =>
    stack.api(path, { method: "POST", token: user.token(), json, headers: key === undefined ? {} : { "idempotency-key": key } });

  const noteCount = async (user: SeededUser) => (await stack.api("/api/notes", { token: user.token() })).body.total as number;

  describe("POST /api/notes", () => {
    it("a repeat returns the first 201 (body and ETag) without a second note", async () => {
      const user = stack.freshUser();
      const body = { title: "  Once only  ", contentMarkdown: "# Agenda\n\n- item" };
      const first = await post(user, "/api/notes", body, "create-agenda-1");
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();

      // A later write bumps the note, but the replay is the first response as it was.
      await stack.api(`/api/notes/${first.body.note.id}`, { method: "PATCH", token: user.token(), json: { title: "Renamed" } });
      for (let i = 0; i < 2; i += 1) {
        const again = await post(user, "/api/notes", body, "create-agenda-1");
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
        // Byte for byte: the same keys in the same order as the first answer, and as GET gives a note.
        expect(again.text).toBe(first.text);
        expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.headers.get("cache-control")).toBe("no-store");
      }
      expect(await noteCount(user)).toBe(1);
      const read = await stack.api(`/api/notes/${first.body.note.id}`, { token: user.token() });
      const listed = await stack.api("/api/notes", { token: user.token() });
      const keys = (note: object) => Object.keys(note).join(",");
      expect(keys(read.body.note)).toBe(keys(first.body.note));
      expect(keys(listed.body.notes[0])).toBe(keys(first.body.note));
      // The same note is the same bytes wherever it appears: read, listed, written.
      const noteBytes = read.text.slice('{"note":'.length, -1);
      expect(listed.text).toContain(noteBytes);
      const written = await stack.api(`/api/notes/${first.body.note.id}`, { method: "PATCH", token: user.token(), json: { pinned: true } });
      const readAgain = await stack.api(`/api/notes/${first.body.note.id}`, { token: user.token() });
      expect(written.text).toBe(readAgain.text);
    });

    it("the same key with the same body in another key order or spacing is the same request", async () => {
      const user = stack.freshUser();
      const first = await post(user, "/api/notes", { title: "Order", contentText: "a" }, "order-key");
      const reordered = await stack.api("/api/notes", {
        method: "POST",
        token: user.token(),
        raw: '{ "contentText" : "a",   "title": "Order" }',
        headers: { "content-type": "application/json", "idempotency-key": "order-key" },
      });
      expect(reordered.status).toBe(201);
      expect(reordered.body.note.id).toBe(first.body.note.id);
    });

    it("the same key with a different body is a 422 and creates nothing", async () => {
      const user = stack.freshUser();
      const first = await post(user, "/api/notes", { title: "First" }, "reused-key");
      expect(first.status).toBe(201);
      const other = await post(user, "/api/notes", { title: "Second" }, "reused-key");
      expect(other.status).toBe(422);
      expect(other.body).toEqual({ error: REUSED });
      expect(await noteCount(user)).toBe(1);
    });

    it("another user's same key is independent", async () => {
      const alice = stack.freshUser();
      const bob = stack.freshUser();
      const body = { title: "Shared key" };
      const a = await post(alice, "/api/notes", body, "shared-key");
      const b = await post(bob, "/api/notes", body, "shared-key");
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.note.id).not.toBe(a.body.note.id);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      // And a different body under Bob's key is judged against Bob's first use only.
      expect((await post(bob, "/api/notes", { title: "Other" }, "shared-key")).status).toBe(422);
      expect((await post(alice, "/api/notes", body, "shared-key")).body.note.id).toBe(a.body.note.id);
    });

    it("one key serves notes and tags separately", async () => {
      const user = stack.freshUser();
      const note = await post(user, "/api/notes", { title: "Scoped" }, "scoped-key");
      const tag = await post(user, "/api/tags", { name: "scoped" }, "scoped-key");
      expect([note.status, tag.status]).toEqual([201, 201]);
      expect(tag.body.tag.name).toBe("scoped");
    });

    it("concurrent first uses of one key create one note", async () => {
      const user = stack.freshUser();
      const token = user.token();
      const body = { title: "Raced", contentMarkdown: "**once**" };
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          stack.api("/api/notes", { method: "POST", token, json: body, headers: { "idempotency-key": "race-key" } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
      expect(new Set(results.map((r) => r.body.note.id)).size).toBe(1);
      expect(results.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
      expect(await noteCount(user)).toBe(1);
    });

    it("errors are not stored: after a 400 the key still creates", async () => {
      const user = stack.freshUser();
      const invalid = await post(user, "/api/notes", { title: "" }, "after-error");
      expect(invalid.status).toBe(400);
      expect(invalid.body.error).toBe("Invalid request body");
      const valid = await post(user, "/api/notes", { title: "Fixed" }, "after-error");
      expect(valid.status).toBe(201);
      expect(valid.headers.get("idempotent-replayed")).toBeNull();
    });

    // The embedded database belongs to the app process while it runs; PostgreSQL can be reached beside it.
    it.runIf(kind === "postgres")("an expired key is replaced by the next use", async () => {
      const user = stack.freshUser();
      const first = await post(user, "/api/notes", { title: "Yesterday" }, "expiring-key");
      await stack.database.withDb((db) =>
        db.idempotencyKey.updateMany({ where: { userId: user.id, key: "expiring-key" }, data: { expiresAt: new Date(Date.now() - 1000) } }),
      );
      const next = await post(user, "/api/notes", { title: "Today" }, "expiring-key");
      expect(next.status).toBe(201);
      expect(next.body.note.id).not.toBe(first.body.note.id);
      expect(next.headers.get("idempotent-replayed")).toBeNull();
      const again = await post(user, "/api/notes", { title: "Today" }, "expiring-key");
      expect(again.body.note.id).toBe(next.body.note.id);
      expect(await stack.database.withDb((db) => db.idempotencyKey.count({ where: { userId: user.id, key: "expiring-key" } }))).toBe(1);
    });

    it.each([
      ["an empty key", ""],
      ["a 256-character key", "k".repeat(256)],
      ["a key with a tab", "bad\tkey"],
      ["a key beyond ASCII", "clé"],
    ])("400 for %s, and nothing is created", async (_name, key) => {
      const user = stack.freshUser();
      const res = await post(user, "/api/notes", { title: "Bad key" }, key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Idempotency-Key must be 1 to 255 printable ASCII characters" });
      expect(await noteCount(user)).toBe(0);
    });

    it("accepts 255 printable characters, spaces inside included", async () => {
      const user = stack.freshUser();
      const key = `a b~${"x".repeat(251)}`;
      expect((await post(user, "/api/notes", { title: "Long key" }, key)).status).toBe(201);
      expect((await post(user, "/api/notes", { title: "Long key" }, key)).headers.get("idempotent-replayed")).toBe("true");
    });

    it("without the header, creates are not deduplicated (as before)", async () => {
      const user = stack.freshUser();
      const a = await post(user, "/api/notes", { title: "Twice" });
      const b = await post(user, "/api/notes", { title: "Twice" });
      expect(a.body.note.id).not.toBe(b.body.note.id);
      expect(Object.keys(b.body)).toEqual(["note"]);
    });
  });

  describe("POST /api/tags", () => {
    it("a repeat returns the first 201 without a 409 or a second tag; a different body is a 422", async () => {
      const user = stack.freshUser();
      const first = await post(user, "/api/tags", { name: "work" }, "tag-key");
      expect(first.status).toBe(201);
      const again = await post(user, "/api/tags", { name: "work" }, "tag-key");
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      const other = await post(user, "/api/tags", { name: "home" }, "tag-key");
      expect(other.status).toBe(422);
      expect(other.body).toEqual({ error: REUSED });
      expect((await stack.api("/api/tags", { token: user.token() })).body.tags).toEqual([first.body.tag]);
    });

    it("a 409 is not stored: the key is free again once the name is", async () => {
      const user = stack.freshUser();
      const existing = await post(user, "/api/tags", { name: "taken" });
      const conflict = await post(user, "/api/tags", { name: "taken" }, "conflict-key");
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({ error: "A tag with this name already exists" });
      await stack.api(`/api/tags/${existing.body.tag.id}`, { method: "DELETE", token: user.token() });
      const retried = await post(user, "/api/tags", { name: "taken" }, "conflict-key");
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
    });

    it("concurrent first uses of one key create one tag, all 201", async () => {
      const user = stack.freshUser();
      const token = user.token();
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          stack.api("/api/tags", { method: "POST", token, json: { name: "raced" }, headers: { "idempotency-key": "tag-race" } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
      expect(new Set(results.map((r) => r.body.tag.id)).size).toBe(1);
    });
  });
});

describe("idempotent(): stored responses and their expiry, on an embedded database", () => {
  let handle: DbHandle;
  let userId: string;
  beforeAll(async () => {
    handle = await createMemoryDb();
    userId = (await createUser(handle.db, { email: "keys@example.com" })).id;
  });
  afterAll(() => handle?.close());

  const run = (key: string | null, request: unknown, status = 201) => {
    let performed = 0;
    const response = idempotent(handle.db, {
      userId,
      scope: "POST /test",
      key,
      request,
      perform: async () => {
        performed += 1;
        return { status, body: { made: request }, headers: { ETag: '"v1"' } };
      },
    });
    return response.then(async (res) => ({ res, body: await res.json(), performed }));
  };

  it("stores the first response for 24 hours and replays it without performing again", async () => {
    const first = await run("k1", { a: 1 });
    expect(first.performed).toBe(1);
    const again = await run("k1", { a: 1 });
    expect(again.performed).toBe(0);
    expect(again.res.status).toBe(201);
    expect(again.body).toEqual({ made: { a: 1 } });
    expect(again.res.headers.get("etag")).toBe('"v1"');
    const row = await handle.db.idempotencyKey.findUniqueOrThrow({ where: { userId_scope_key: { userId, scope: "POST /test", key: "k1" } } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
  });

  it("replaces an expired key on its next use, even with another body", async () => {
    await run("k2", { a: 1 });
    await handle.db.idempotencyKey.updateMany({ where: { key: "k2" }, data: { expiresAt: new Date(Date.now() - 1) } });
    const next = await run("k2", { b: 2 });
    expect(next.performed).toBe(1);
    expect(next.body).toEqual({ made: { b: 2 } });
    expect(await handle.db.idempotencyKey.count({ where: { key: "k2" } })).toBe(1);
    expect((await run("k2", { b: 2 })).performed).toBe(0);
  });

  it("keeps nothing for a failed or non-2xx perform", async () => {
    await expect(
      idempotent(handle.db, { userId, scope: "POST /test", key: "k3", request: {}, perform: async () => Promise.reject(new Error("boom")) }),
    ).rejects.toThrow("boom");
    await run("k4", {}, 409);
    expect(await handle.db.idempotencyKey.count({ where: { key: { in: ["k3", "k4"] } } })).toBe(0);
  });
});
