import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useNotesStack, type SeededUser } from "@/tests/helpers/notes-app";

describe.each(TEST_DB_KINDS)("optimistic concurrency: ETag and If-Match (%s)", (kind) => {
  const stack = useNotesStack(kind);

  async function create(user: SeededUser, json: Record<string, unknown> = { title: "Shared note", contentText: "v1 text" }) {
    const res = await stack.api("/api/notes", { method: "POST", token: user.token(), json });
    expect(res.status).toBe(201);
    return { note: res.body.note, etag: res.headers.get("etag")! };
  }

  const patch = (user: SeededUser, id: string, json: unknown, ifMatch?: string) =>
    stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json, headers: ifMatch === undefined ? {} : { "if-match": ifMatch } });

  it("every single-note response carries the version as a strong ETag, bumped by each write", async () => {
    const user = stack.freshUser();
    const { note, etag } = await create(user);
    expect(etag).toBe('"v1"');
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).headers.get("etag")).toBe('"v1"');
    const first = await patch(user, note.id, { title: "Second" }, '"v1"');
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBe('"v2"');
    const second = await patch(user, note.id, { title: "Third" });
    expect(second.headers.get("etag")).toBe('"v3"');
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).headers.get("etag")).toBe('"v3"');
  });

  it("two parallel PATCHes with the same If-Match: exactly one 200, one 412 with the current note", async () => {
    const user = stack.freshUser();
    const { note, etag } = await create(user);
    const [a, b] = await Promise.all([
      patch(user, note.id, { title: "Agent's title", contentText: "agent" }, etag),
      patch(user, note.id, { title: "Person's title", contentText: "person" }, etag),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    expect(lost.body).toEqual({ error: "Note was modified", note: won.body.note });
    expect(lost.headers.get("etag")).toBe('"v2"');
    expect(won.headers.get("etag")).toBe('"v2"');
    const current = await stack.api(`/api/notes/${note.id}`, { token: user.token() });
    expect(current.body.note).toEqual(won.body.note);
    expect(current.headers.get("etag")).toBe('"v2"');
  });

  it("a stale If-Match writes nothing: 412 with the current note and its ETag; retrying with it succeeds", async () => {
    const user = stack.freshUser();
    const { note, etag } = await create(user);
    const moved = await patch(user, note.id, { contentText: "edited in the browser" });
    const stale = await patch(user, note.id, { contentText: "agent overwrite" }, etag);
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ error: "Note was modified", note: moved.body.note });
    expect(stale.headers.get("etag")).toBe('"v2"');
    expect(stale.headers.get("cache-control")).toBe("no-store");
    const retried = await patch(user, note.id, { contentText: "merged" }, stale.headers.get("etag")!);
    expect(retried.status).toBe(200);
    expect(retried.body.note.contentText).toBe("merged");
  });

  it("a stale DELETE is a 412 and the note stays; the current ETag deletes it", async () => {
    const user = stack.freshUser();
    const { note, etag } = await create(user);
    const moved = await patch(user, note.id, { title: "Edited" });
    const stale = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token(), headers: { "if-match": etag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ error: "Note was modified", note: moved.body.note });
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).status).toBe(200);
    const current = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token(), headers: { "if-match": '"v2"' } });
    expect(current.status).toBe(204);
    expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).status).toBe(404);
  });

  it("If-Match * matches any version", async () => {
    const user = stack.freshUser();
    const { note } = await create(user);
    await patch(user, note.id, { title: "Moved on" });
    const star = await patch(user, note.id, { title: "Star" }, "*");
    expect(star.status).toBe(200);
    expect(star.headers.get("etag")).toBe('"v3"');
    const deleted = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token(), headers: { "if-match": "*" } });
    expect(deleted.status).toBe(204);
  });

  it.each([["garbage"], ['"v"'], ["v1"], ['W/"v1"'], ['"x1"'], ['"v99999999999"']])(
    "If-Match %s names no version of ours: 412 with the current note, nothing written",
    async (ifMatch) => {
      const user = stack.freshUser();
      const { note } = await create(user);
      const res = await patch(user, note.id, { title: "Never written" }, ifMatch);
      expect(res.status).toBe(412);
      expect(res.body).toEqual({ error: "Note was modified", note });
      const del = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token(), headers: { "if-match": ifMatch } });
      expect(del.status).toBe(412);
      expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note).toEqual(note);
    },
  );

  it("If-Match on another user's or a missing note is a 404, not a 412", async () => {
    const owner = stack.freshUser();
    const other = stack.freshUser();
    const { note, etag } = await create(owner);
    const foreign = await patch(other, note.id, { title: "Hijack" }, etag);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "Note not found" });
    const missing = await patch(owner, "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", { title: "x" }, etag);
    expect(missing.status).toBe(404);
  });

  it("50 parallel PATCHes without If-Match leave one consistent note at version 51", async () => {
    const user = stack.freshUser();
    const tags: { id: string }[] = [];
    for (const name of ["red", "green", "blue"]) {
      tags.push((await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name } })).body.tag);
    }
    const { note } = await create(user);
    const writes = Array.from({ length: 50 }, (_, i) => ({
      title: `Writer ${i}`,
      contentText: `text of writer ${i}`,
      tagIds: [tags[i % 3]!.id, tags[(i + 1) % 3]!.id],
    }));
    const token = user.token();
    const results = await Promise.all(
      writes.map((json) => stack.api(`/api/notes/${note.id}`, { method: "PATCH", token, json })),
    );
    expect(results.map((r) => r.status)).toEqual(writes.map(() => 200));
    expect(new Set(results.map((r) => r.headers.get("etag"))).size).toBe(50);

    const final = await stack.api(`/api/notes/${note.id}`, { token });
    expect(final.headers.get("etag")).toBe('"v51"');
    const writer = writes.findIndex((w) => w.title === final.body.note.title);
    expect(writer).toBeGreaterThanOrEqual(0);
    // Title, text and tags all come from the same (last) writer.
    expect(final.body.note.contentText).toBe(writes[writer]!.contentText);
    expect(final.body.note.tags.map((t: { id: string }) => t.id).sort()).toEqual([...writes[writer]!.tagIds].sort());
    // The last response to be written is the one that was read back.
    const last = results.find((r) => r.headers.get("etag") === '"v51"')!;
    expect(last.body.note).toEqual(final.body.note);
  });
});
