import { describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

const MISSING_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";

describe.each(TEST_DB_KINDS)("/api/notes/{id} (%s)", (kind) => {
  const stack = useApiStack(kind);

  const create = (user: SeededUser, body: Record<string, unknown> = { title: "A note" }) => stack.createNote(user, body);

  describe("GET /api/notes/{id}", () => {
    it("returns { note }", async () => {
      const user = stack.freshUser();
      const note = await create(user, { title: "Read me", contentText: "body" });
      const res = await stack.api(`/api/notes/${note.id}`, { token: user.token() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ note });
      expect(res.headers.get("cache-control")).toBe("no-store");
    });

    it("If-None-Match with the ETag held answers 304 with no body until the note changes; a stale or foreign one answers the note", async () => {
      const user = stack.freshUser();
      const note = await create(user, { title: "Watched", contentText: "v1" });
      const first = await stack.api(`/api/notes/${note.id}`, { token: user.token() });
      const etag = first.headers.get("etag")!;
      const unchanged = await stack.api(`/api/notes/${note.id}`, { token: user.token(), headers: { "if-none-match": etag } });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe("");
      expect(unchanged.headers.get("etag")).toBe(etag);
      // Any representation: the version is the same.
      const asMarkdown = await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token(), headers: { "if-none-match": `"v0", ${etag}` } });
      expect(asMarkdown.status).toBe(304);
      // Compared weakly, as RFC 9110 says for If-None-Match: a cache that marked the tag weak still holds this version.
      expect((await stack.api(`/api/notes/${note.id}`, { token: user.token(), headers: { "if-none-match": `W/${etag}` } })).status).toBe(304);

      await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { contentText: "v2" } });
      const changed = await stack.api(`/api/notes/${note.id}`, { token: user.token(), headers: { "if-none-match": etag } });
      expect(changed.status).toBe(200);
      expect(changed.body.note.contentText).toBe("v2");
      expect(changed.headers.get("etag")).not.toBe(etag);
      const foreign = await stack.api(`/api/notes/${note.id}`, { token: user.token(), headers: { "if-none-match": '"not-ours"' } });
      expect(foreign.status).toBe(200);

      // Nothing about another account's note: 404 whatever the ETag.
      const other = stack.freshUser();
      const hidden = await stack.api(`/api/notes/${note.id}`, { token: other.token(), headers: { "if-none-match": changed.headers.get("etag")! } });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ error: "Note not found" });
    });

    it("404 for an unknown id and for another user's note; 400 for a malformed id", async () => {
      const owner = stack.freshUser();
      const other = stack.freshUser();
      const note = await create(owner);
      for (const [id, token] of [[MISSING_ID, owner.token()], [note.id, other.token()]] as const) {
        const res = await stack.api(`/api/notes/${id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "Note not found" });
      }
      for (const id of ["nope", "1234", `${note.id}x`]) {
        const res = await stack.api(`/api/notes/${id}`, { token: owner.token() });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "Invalid note id" });
      }
    });
  });

  describe("PATCH /api/notes/{id}", () => {
    it("updates only the given fields and moves updatedAt forward", async () => {
      const user = stack.freshUser();
      const note = await create(user, { title: "Draft", content: [{ type: "paragraph" }], contentText: "old body" });
      // updatedAt has millisecond precision: the edit must come in a later millisecond to be seen as later.
      await waitFor(() => Date.now() > Date.parse(note.updatedAt), { timeoutMs: 1000, intervalMs: 1, message: "the clock to pass the note's updatedAt" });
      const res = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { title: "  Final  " } });
      expect(res.status).toBe(200);
      expect(res.body.note).toEqual({ ...note, title: "Final", updatedAt: expect.any(String) });
      expect(res.body.note.updatedAt > note.updatedAt).toBe(true);
      expect(res.body.note.createdAt).toBe(note.createdAt);

      const body = await stack.api(`/api/notes/${note.id}`, {
        method: "PATCH",
        token: user.token(),
        json: { content: { any: ["json", 1, null] }, contentText: "new body" },
      });
      expect(body.body.note).toMatchObject({ title: "Final", content: { any: ["json", 1, null] }, contentText: "new body" });
      const search = await stack.api("/api/notes?search=new%20body", { token: user.token() });
      expect(search.body.total).toBe(1);
    });

    it("tagIds replaces the set, ignoring tags of other users", async () => {
      const user = stack.freshUser();
      const other = stack.freshUser();
      const tag = async (u: SeededUser, name: string) =>
        (await stack.api("/api/tags", { method: "POST", token: u.token(), json: { name } })).body.tag;
      const [a, b, foreign] = [await tag(user, "alpha"), await tag(user, "beta"), await tag(other, "gamma")];
      const note = await create(user, { title: "Tags", tagIds: [a.id] });
      const patch = (tagIds: string[]) =>
        stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { tagIds } });
      expect((await patch([b.id, foreign.id])).body.note.tags.map((t: { name: string }) => t.name)).toEqual(["beta"]);
      expect((await patch([b.id, a.id])).body.note.tags.map((t: { name: string }) => t.name)).toEqual(["alpha", "beta"]);
      expect((await patch([])).body.note.tags).toEqual([]);
    });

    it.each([
      ["an empty body", {}],
      ["an empty title", { title: " " }],
      ["a 501-character title", { title: "x".repeat(501) }],
      ["tagIds that are not UUIDs", { tagIds: [1] }],
    ])("400 Invalid request body for %s, and nothing changes", async (_case, json) => {
      const user = stack.freshUser();
      const note = await create(user);
      const res = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
      expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note).toEqual(note);
    });

    it("400 for bad JSON, 404 for unknown or foreign notes, 400 for a malformed id", async () => {
      const owner = stack.freshUser();
      const other = stack.freshUser();
      const note = await create(owner);
      const badJson = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: owner.token(), raw: "{", headers: { "content-type": "application/json" } });
      expect(badJson.status).toBe(400);
      expect(badJson.body).toEqual({ error: "Request body must be valid JSON" });
      const foreign = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: other.token(), json: { title: "Hijack" } });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Note not found" });
      const missing = await stack.api(`/api/notes/${MISSING_ID}`, { method: "PATCH", token: owner.token(), json: { title: "x" } });
      expect(missing.status).toBe(404);
      const malformed = await stack.api(`/api/notes/abc`, { method: "PATCH", token: owner.token(), json: { title: "x" } });
      expect(malformed.body).toEqual({ error: "Invalid note id" });
      expect((await stack.api(`/api/notes/${note.id}`, { token: owner.token() })).body.note.title).toBe("A note");
    });
  });

  describe("DELETE /api/notes/{id}", () => {
    it("204 with an empty body; the note is gone", async () => {
      const user = stack.freshUser();
      const note = await create(user);
      const res = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token() });
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).status).toBe(404);
      const again = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token() });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: "Note not found" });
    });

    it("another user's note is a 404 and stays", async () => {
      const owner = stack.freshUser();
      const other = stack.freshUser();
      const note = await create(owner);
      const res = await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: other.token() });
      expect(res.status).toBe(404);
      expect((await stack.api(`/api/notes/${note.id}`, { token: owner.token() })).status).toBe(200);
      const malformed = await stack.api(`/api/notes/zzz`, { method: "DELETE", token: owner.token() });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: "Invalid note id" });
    });
  });
});
