import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

const MISSING_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(TEST_DB_KINDS)("trash: /api/trash (%s)", (kind) => {
  const stack = useApiStack(kind);

  const create = (user: SeededUser, body: Record<string, unknown>) => stack.createNote(user, body);
  const tag = async (user: SeededUser, name: string) => (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name } })).body.tag;
  const remove = (user: SeededUser, id: string, headers: Record<string, string> = {}) =>
    stack.api(`/api/notes/${id}`, { method: "DELETE", token: user.token(), headers });
  const trash = async (user: SeededUser, query = "") => {
    const res = await stack.api(`/api/trash${query}`, { token: user.token() });
    expect(res.status).toBe(200);
    return res.body;
  };
  const restore = (user: SeededUser, id: string) => stack.api(`/api/trash/${id}/restore`, { method: "POST", token: user.token() });

  it("DELETE keeps its contract: 204, then 404 from every note route and absent from lists, search and totals", async () => {
    const user = stack.freshUser();
    const label = await tag(user, "errands");
    const kept = await create(user, { title: "Kept errand", contentText: "zephyrine stays", tagIds: [label.id] });
    const note = await create(user, { title: "Gone errand", contentText: "zephyrine goes", tagIds: [label.id] });

    const res = await remove(user, note.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    for (const [method, json] of [["GET", undefined], ["PATCH", { title: "Back?" }], ["DELETE", undefined]] as const) {
      const gone = await stack.api(`/api/notes/${note.id}`, { method, token: user.token(), json });
      expect(gone.status, method).toBe(404);
      expect(gone.body).toEqual({ error: "Note not found" });
    }
    expect((await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token() })).status).toBe(404);
    for (const query of ["", "?search=zephyrine", `?tagId=${label.id}`, "?search=errand&limit=1"]) {
      const list = await stack.api(`/api/notes${query}`, { token: user.token() });
      expect(list.body.notes.map((n: { id: string }) => n.id), query).toEqual([kept.id]);
      expect(list.body.total, query).toBe(1);
    }
  });

  it("GET /api/trash lists deleted notes newest deleted first, with deletedAt and expiresAt 30 days on, paged like the notes list", async () => {
    const user = stack.freshUser();
    const notes = [];
    for (const title of ["First", "Second", "Third"]) notes.push(await create(user, { title, content: [{ type: "paragraph", content: title }] }));
    for (const note of notes) expect((await remove(user, note.id)).status).toBe(204);

    const all = await trash(user);
    expect(all.total).toBe(3);
    expect(all.nextCursor).toBeUndefined();
    expect(all.notes.map((n: { title: string }) => n.title)).toEqual(["Third", "Second", "First"]);
    for (const item of all.notes) {
      const original = notes.find((n) => n.id === item.id);
      expect(item).toEqual({ ...original, deletedAt: expect.any(String), expiresAt: expect.any(String) });
      expect(Date.parse(item.expiresAt) - Date.parse(item.deletedAt)).toBe(30 * DAY_MS);
    }

    const first = await trash(user, "?limit=2");
    expect(first.notes).toEqual(all.notes.slice(0, 2));
    expect(first.total).toBe(3);
    expect(typeof first.nextCursor).toBe("string");
    const next = await trash(user, `?limit=2&cursor=${first.nextCursor}`);
    expect(next.notes).toEqual(all.notes.slice(2));
    expect(next.nextCursor).toBeUndefined();
    expect((await trash(user, "?offset=1&limit=1")).notes).toEqual(all.notes.slice(1, 2));

    for (const query of ["?limit=0", "?limit=501", "?offset=-1", "?cursor=nope"]) {
      const bad = await stack.api(`/api/trash${query}`, { token: user.token() });
      expect(bad.status, query).toBe(400);
      expect(bad.body).toEqual({ error: "Invalid query parameters", details: expect.any(Object) });
    }
    expect(await trash(stack.freshUser())).toEqual({ notes: [], total: 0 });
  });

  it("POST /api/trash/{id}/restore brings back the identical note: id, content, version, tags, and its place in lists, search and totals", async () => {
    const user = stack.freshUser();
    const [a, b] = [await tag(user, "alpha"), await tag(user, "beta")];
    const content = [
      { id: "block-1", type: "heading", props: { level: 2 }, content: [{ type: "text", text: "Plans", styles: {} }], children: [] },
      { id: "block-2", type: "paragraph", props: {}, content: [{ type: "text", text: "quixotical detail", styles: { bold: true } }], children: [] },
    ];
    const created = await create(user, { title: "Restorable", content, contentText: "quixotical detail", tagIds: [a.id, b.id] });
    const patched = await stack.api(`/api/notes/${created.id}`, { method: "PATCH", token: user.token(), json: { title: "Restorable, edited" } });
    const note = patched.body.note;
    const etag = patched.headers.get("etag");
    expect(etag).toBe('"v2"');
    const markdown = (await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token() })).text;

    expect((await remove(user, note.id, { "if-match": '"v1"' })).status).toBe(412);
    expect((await remove(user, note.id, { "if-match": etag! })).status).toBe(204);
    expect((await stack.api(`/api/notes?tagId=${a.id}`, { token: user.token() })).body.total).toBe(0);

    const res = await restore(user, note.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ note });
    expect(res.headers.get("etag")).toBe(etag);
    const got = await stack.api(`/api/notes/${note.id}`, { token: user.token() });
    expect(got.body).toEqual({ note });
    expect(got.headers.get("etag")).toBe(etag);
    expect((await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token() })).text).toBe(markdown);
    for (const query of ["", "?search=quixotical", `?tagId=${a.id}`, `?tagId=${b.id}`]) {
      const list = await stack.api(`/api/notes${query}`, { token: user.token() });
      expect(list.body, query).toEqual({ notes: [note], total: 1 });
    }
    expect(await trash(user)).toEqual({ notes: [], total: 0 });
    // The restored note takes writes at its version, as before.
    const after = await stack.api(`/api/notes/${note.id}`, { method: "PATCH", token: user.token(), json: { title: "Edited again" }, headers: { "if-match": etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).toBe('"v3"');

    const again = await restore(user, note.id);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "Note not found in the trash" });
  });

  it("a tag deleted while its note is in the trash does not come back with it", async () => {
    const user = stack.freshUser();
    const [keep, drop] = [await tag(user, "keep"), await tag(user, "drop")];
    const note = await create(user, { title: "Tagged", tagIds: [keep.id, drop.id] });
    await remove(user, note.id);
    expect((await stack.api(`/api/tags/${drop.id}`, { method: "DELETE", token: user.token() })).status).toBe(204);
    expect((await trash(user)).notes[0].tags).toEqual([keep]);
    const res = await restore(user, note.id);
    expect(res.body.note.tags).toEqual([keep]);
    expect((await stack.api(`/api/notes?tagId=${keep.id}`, { token: user.token() })).body.total).toBe(1);
  });

  it("DELETE /api/trash/{id} removes one note for good; DELETE /api/trash empties the trash", async () => {
    const user = stack.freshUser();
    const [one, two, three] = [await create(user, { title: "One" }), await create(user, { title: "Two" }), await create(user, { title: "Three" })];
    for (const note of [one, two, three]) await remove(user, note.id);

    const res = await stack.api(`/api/trash/${one.id}`, { method: "DELETE", token: user.token() });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await trash(user)).notes.map((n: { id: string }) => n.id)).toEqual([three.id, two.id]);
    expect((await restore(user, one.id)).status).toBe(404);
    const again = await stack.api(`/api/trash/${one.id}`, { method: "DELETE", token: user.token() });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "Note not found in the trash" });

    const emptied = await stack.api("/api/trash", { method: "DELETE", token: user.token() });
    expect(emptied.status).toBe(204);
    expect(await trash(user)).toEqual({ notes: [], total: 0 });
    expect((await restore(user, two.id)).status).toBe(404);
    expect((await stack.api(`/api/notes/${two.id}`, { token: user.token() })).status).toBe(404);
    expect((await stack.api("/api/trash", { method: "DELETE", token: user.token() })).status).toBe(204);
  });

  it("another user's trash is a 404; malformed ids are 400s; an unknown id is a 404", async () => {
    const owner = stack.freshUser();
    const other = stack.freshUser();
    const note = await create(owner, { title: "Mine" });
    await remove(owner, note.id);
    for (const [method, path] of [["POST", `/api/trash/${note.id}/restore`], ["DELETE", `/api/trash/${note.id}`], ["POST", `/api/trash/${MISSING_ID}/restore`]] as const) {
      const res = await stack.api(path, { method, token: other.token() });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: "Note not found in the trash" });
    }
    expect((await stack.api("/api/trash", { method: "DELETE", token: other.token() })).status).toBe(204);
    expect((await trash(owner)).total).toBe(1);
    for (const [method, path] of [["POST", "/api/trash/nope/restore"], ["DELETE", "/api/trash/1234"]] as const) {
      const res = await stack.api(path, { method, token: owner.token() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Invalid note id" });
    }
    const unauthenticated = await stack.api("/api/trash");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toEqual({ error: "Missing X-Session-Token header" });
    const wrongMethod = await stack.api(`/api/trash/${note.id}/restore`, { method: "GET", token: owner.token() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });
});
