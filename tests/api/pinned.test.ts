import { beforeAll, describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

type Note = { id: string; title: string; pinned: boolean; updatedAt: string };

describe.each(TEST_DB_KINDS)("pinned notes (%s)", (kind) => {
  const stack = useApiStack(kind);

  const create = (user: SeededUser, body: Record<string, unknown>) => stack.createNote<Note>(user, body);
  const patch = (user: SeededUser, id: string, json: unknown, headers: Record<string, string> = {}) =>
    stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json, headers });
  async function list(user: SeededUser, query = ""): Promise<{ notes: Note[]; total: number; nextCursor?: string }> {
    const res = await stack.api(`/api/notes${query}`, { token: user.token() });
    expect(res.status, query).toBe(200);
    return res.body;
  }
  const ids = (notes: { id: string }[]) => notes.map((note) => note.id);

  it("a note is not pinned unless created so; the field is in every note's JSON", async () => {
    const user = stack.freshUser();
    const plain = await create(user, { title: "Plain" });
    const pinned = await create(user, { title: "Pinned", pinned: true });
    expect(plain.pinned).toBe(false);
    expect(pinned.pinned).toBe(true);
    expect((await stack.api(`/api/notes/${pinned.id}`, { token: user.token() })).body.note).toEqual(pinned);
    expect((await list(user)).notes).toEqual([pinned, plain]);
  });

  it("PATCH pinned bumps the version like any write, honours If-Match, and refuses a non-boolean", async () => {
    const user = stack.freshUser();
    const note = await create(user, { title: "To pin", contentText: "body stays" });
    const res = await patch(user, note.id, { pinned: true }, { "If-Match": '"v1"' });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe('"v2"');
    expect(res.body.note).toMatchObject({ id: note.id, title: "To pin", pinned: true });
    expect(Date.parse(res.body.note.updatedAt)).toBeGreaterThanOrEqual(Date.parse(note.updatedAt));

    const stale = await patch(user, note.id, { pinned: false }, { "If-Match": '"v1"' });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error: "Note was modified", note: { pinned: true } });

    for (const body of [{ pinned: "true" }, { pinned: 1 }, { pinned: null }]) {
      const bad = await patch(user, note.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
    }
    const badCreate = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "x", pinned: "yes" } });
    expect(badCreate.status).toBe(400);
    expect((await patch(user, note.id, { pinned: false })).body.note.pinned).toBe(false);
  });

  describe("the pinned filter", () => {
    let user: SeededUser;
    let tagId: string;
    let notes: Note[];
    beforeAll(async () => {
      user = stack.freshUser();
      tagId = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "work" } })).body.tag.id;
      notes = [];
      for (let i = 0; i < 12; i += 1) {
        notes.push(await create(user, { title: `Note ${i} ${i % 2 ? "odd" : "even"}`, ...(i % 3 === 0 ? { tagIds: [tagId] } : {}) }));
      }
      // Pinned by PATCH, oldest first: 0, 4, 8 (each PATCH makes it the most recently updated).
      for (const i of [0, 4, 8]) expect((await patch(user, notes[i]!.id, { pinned: true })).status).toBe(200);
    });

    it("the default order is unchanged: most recently updated first, pinned or not", async () => {
      const all = await list(user);
      expect(all.total).toBe(12);
      const expected = [...(await Promise.all(notes.map(async (note) => (await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note)))]
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
      expect(all.notes).toEqual(expected);
      // A PATCH makes a note the most recent; pinning changes nothing else about its place.
      expect(ids(all.notes.slice(0, 3))).toEqual([notes[8]!.id, notes[4]!.id, notes[0]!.id]);
    });

    it("pinned=true lists only the pinned notes, pinned=false the rest; the totals are exact and add up", async () => {
      const pinned = await list(user, "?pinned=true");
      expect(ids(pinned.notes)).toEqual([notes[8]!.id, notes[4]!.id, notes[0]!.id]);
      expect(pinned.total).toBe(3);
      expect(pinned.notes.every((note) => note.pinned)).toBe(true);
      const rest = await list(user, "?pinned=false");
      expect(rest.total).toBe(9);
      expect(rest.notes.every((note) => !note.pinned)).toBe(true);
      expect(ids(rest.notes)).toEqual(ids((await list(user)).notes.filter((note) => !note.pinned)));
    });

    it("combines with tagId and search, totals exact", async () => {
      // Tagged: 0, 3, 6, 9; of those pinned: 0. Odd titles: 1, 3, 5, 7, 9, 11; none pinned. Even and pinned: 0, 4, 8.
      expect(await list(user, `?pinned=true&tagId=${tagId}`)).toEqual({ notes: [expect.objectContaining({ id: notes[0]!.id })], total: 1 });
      const taggedRest = await list(user, `?pinned=false&tagId=${tagId}`);
      expect(ids(taggedRest.notes)).toEqual([notes[9]!.id, notes[6]!.id, notes[3]!.id]);
      expect(taggedRest.total).toBe(3);
      expect(await list(user, "?pinned=true&search=odd")).toEqual({ notes: [], total: 0 });
      const even = await list(user, "?pinned=true&search=even&sort=relevance");
      expect(even.total).toBe(3);
      expect(even.notes.map((note) => note.id).sort()).toEqual([notes[0]!.id, notes[4]!.id, notes[8]!.id].sort());
      const oddTagged = await list(user, `?pinned=false&search=odd&tagId=${tagId}`);
      expect(ids(oddTagged.notes)).toEqual([notes[9]!.id, notes[3]!.id]);
      expect(oddTagged.total).toBe(2);
      expect((await list(user, `?pinned=true&search=even&tagId=${tagId}&highlight=true`)).total).toBe(1);
    });

    it("cursor and offset paging walk each filter exactly once, with the same total on every page", async () => {
      for (const [filter, count] of [["true", 3], ["false", 9]] as const) {
        const whole = await list(user, `?pinned=${filter}`);
        const seen: Note[] = [];
        let query = `?pinned=${filter}&limit=2`;
        for (;;) {
          const page = await list(user, query);
          expect(page.total).toBe(count);
          seen.push(...page.notes);
          if (!page.nextCursor) break;
          query = `?pinned=${filter}&limit=2&cursor=${page.nextCursor}`;
        }
        expect(seen).toEqual(whole.notes);
        const byOffset = await list(user, `?pinned=${filter}&limit=2&offset=2`);
        expect(byOffset.notes).toEqual(whole.notes.slice(2, 4));
        expect(byOffset.total).toBe(count);
      }
    });

    it("refuses values other than true and false", async () => {
      for (const value of ["yes", "1", "TRUE", ""]) {
        const res = await stack.api(`/api/notes?pinned=${value}`, { token: user.token() });
        expect(res.status, value).toBe(400);
        expect(res.body).toEqual({ error: "Invalid query parameters", details: expect.any(Object) });
      }
    });

    it("never counts another user's pinned notes", async () => {
      const other = stack.freshUser();
      expect(await list(other, "?pinned=true")).toEqual({ notes: [], total: 0 });
      expect(await list(other, `?pinned=false&tagId=${tagId}`)).toEqual({ notes: [], total: 0 });
    });
  });

  it("a pinned note goes to the trash pinned and comes back pinned", async () => {
    const user = stack.freshUser();
    const note = await create(user, { title: "Keep me pinned", pinned: true });
    expect((await stack.api(`/api/notes/${note.id}`, { method: "DELETE", token: user.token() })).status).toBe(204);
    expect(await list(user, "?pinned=true")).toEqual({ notes: [], total: 0 });
    const trash = (await stack.api("/api/trash", { token: user.token() })).body;
    expect(trash.notes[0]).toMatchObject({ id: note.id, pinned: true });

    const restored = await stack.api(`/api/trash/${note.id}/restore`, { method: "POST", token: user.token() });
    expect(restored.status).toBe(200);
    expect(restored.body.note).toEqual(note);
    expect(await list(user, "?pinned=true")).toEqual({ notes: [note], total: 1 });
    expect((await list(user, "?pinned=false")).total).toBe(0);
  });
});
