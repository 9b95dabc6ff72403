import { beforeAll, describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

describe.each(TEST_DB_KINDS)("GET /api/notes (%s)", (kind) => {
  const stack = useApiStack(kind);

  const create = (user: SeededUser, body: Record<string, unknown>) => stack.createNote(user, body);
  const list = (user: SeededUser, query = "") => stack.api(`/api/notes${query}`, { token: user.token() });

  it("an empty account lists nothing", async () => {
    const res = await list(stack.freshUser());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notes: [], total: 0 });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  describe("paging over 105 notes", () => {
    let user: SeededUser;
    let created: { id: string }[];
    beforeAll(async () => {
      user = stack.freshUser();
      created = [];
      for (let i = 0; i < 105; i += 1) created.push(await create(user, { title: `Note ${i}` }));
    });

    it("defaults to 100 notes with the total across pages", async () => {
      const res = await list(user);
      expect(res.body.notes).toHaveLength(100);
      expect(res.body.total).toBe(105);
    });

    it("limit 500 returns all; offset pages; pages are stable and disjoint", async () => {
      const all = await list(user, "?limit=500");
      expect(all.body.notes).toHaveLength(105);
      const ids: string[] = [];
      for (let offset = 0; offset < 105; offset += 20) {
        const page = await list(user, `?limit=20&offset=${offset}`);
        expect(page.body.total).toBe(105);
        ids.push(...page.body.notes.map((n: { id: string }) => n.id));
      }
      expect(ids).toEqual(all.body.notes.map((n: { id: string }) => n.id));
      expect(new Set(ids).size).toBe(105);
      const past = await list(user, "?offset=1000");
      expect(past.body).toEqual({ notes: [], total: 105 });
    });

    it("orders by most recently updated first, ties broken by id", async () => {
      const { notes } = (await list(user, "?limit=500")).body;
      for (let i = 1; i < notes.length; i += 1) {
        const [prev, cur] = [notes[i - 1], notes[i]];
        expect(prev.updatedAt >= cur.updatedAt).toBe(true);
        if (prev.updatedAt === cur.updatedAt) expect(prev.id > cur.id).toBe(true);
      }
      // The newest note comes first; after a PATCH the oldest does.
      expect(notes[0].id).toBe(created[104]!.id);
      const oldest = created[0]!.id;
      await stack.api(`/api/notes/${oldest}`, { method: "PATCH", token: user.token(), json: { title: "Touched" } });
      const after = await list(user, "?limit=1");
      expect(after.body.notes[0].id).toBe(oldest);
      expect(after.body.notes[0].title).toBe("Touched");
    });
  });

  it.each([
    ["limit=0"],
    ["limit=501"],
    ["limit=abc"],
    ["limit=-1"],
    ["limit=1.5"],
    ["limit="],
    ["offset=-1"],
    ["offset=x"],
    ["tagId=not-a-uuid"],
  ])("400 Invalid query parameters with details for %s", async (query) => {
    const res = await list(stack.freshUser(), `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid query parameters", details: expect.any(Object) });
    expect(Object.keys(res.body.details.fieldErrors).length).toBeGreaterThan(0);
  });

  it("accepts limit 1 and 500", async () => {
    const user = stack.freshUser();
    await create(user, { title: "one" });
    await create(user, { title: "two" });
    expect((await list(user, "?limit=1")).body.notes).toHaveLength(1);
    expect((await list(user, "?limit=500")).body.notes).toHaveLength(2);
  });

  it("a query parameter the route does not take is a 400 naming it and those it takes, not a list that ignores it", async () => {
    const user = stack.freshUser();
    await create(user, { title: "one" });
    const takes = "Unknown parameter; accepted: search, sort, highlight, tagId, pinned, limit, cursor, offset";
    const misspelt = await list(user, "?serach=one&tagid=x&limit=5");
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toEqual({ error: "Invalid query parameters", details: { formErrors: [], fieldErrors: { serach: [takes], tagid: [takes] } } });
    // A route that takes none says so.
    const me = await stack.api("/api/me?verbose=1", { token: user.token() });
    expect(me.status).toBe(400);
    expect(me.body).toEqual({ error: "Invalid query parameters", details: { formErrors: [], fieldErrors: { verbose: ["Unknown parameter; accepted: none"] } } });
  });

  describe("search", () => {
    let user: SeededUser;
    beforeAll(async () => {
      user = stack.freshUser();
      await create(user, { title: "Weekly Meeting notes", contentText: "budget review with finance" });
      await create(user, { title: "Shopping", contentText: "milk, eggs, MEETING snacks" });
      await create(user, { title: "Discount 100% off", contentText: "file_name and C:\\path\\to" });
      await create(user, { title: "Discount 1000 off", contentText: "filename and C:/path/to" });
      await create(user, { title: "Ideas", contentText: "" });
    });
    const titles = async (query: string) => {
      const res = await list(user, `?search=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.notes.length);
      return res.body.notes.map((n: { title: string }) => n.title).sort();
    };

    it("matches titles and bodies, case-insensitively", async () => {
      expect(await titles("meeting")).toEqual(["Shopping", "Weekly Meeting notes"]);
      expect(await titles("BUDGET")).toEqual(["Weekly Meeting notes"]);
      expect(await titles("eet")).toEqual(["Shopping", "Weekly Meeting notes"]);
    });

    it("requires every whitespace-separated term", async () => {
      expect(await titles("meeting budget")).toEqual(["Weekly Meeting notes"]);
      expect(await titles("  meeting   snacks ")).toEqual(["Shopping"]);
      expect(await titles("meeting nothing-like-this")).toEqual([]);
    });

    it("treats %, _ and \\ literally", async () => {
      expect(await titles("100%")).toEqual(["Discount 100% off"]);
      expect(await titles("%")).toEqual(["Discount 100% off"]);
      expect(await titles("file_name")).toEqual(["Discount 100% off"]);
      expect(await titles("_")).toEqual(["Discount 100% off"]);
      expect(await titles("C:\\path")).toEqual(["Discount 100% off"]);
    });

    it("an empty search lists everything", async () => {
      expect(await titles("")).toHaveLength(5);
      expect(await titles("   ")).toHaveLength(5);
    });

    it("combines with the tag filter and keeps the total exact", async () => {
      const tag = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "errands" } })).body.tag;
      const tagged = await create(user, { title: "Meeting errands", tagIds: [tag.id] });
      await create(user, { title: "Errands without tag" });
      const byTag = await list(user, `?tagId=${tag.id}`);
      expect(byTag.body.notes.map((n: { id: string }) => n.id)).toEqual([tagged.id]);
      expect(byTag.body.total).toBe(1);
      const both = await list(user, `?tagId=${tag.id}&search=meeting`);
      expect(both.body.total).toBe(1);
      const none = await list(user, `?tagId=${tag.id}&search=shopping`);
      expect(none.body).toEqual({ notes: [], total: 0 });
      const paged = await list(user, `?search=meeting&limit=1`);
      expect(paged.body.notes).toHaveLength(1);
      expect(paged.body.total).toBe(3);
    });
  });

  it("never shows another user's notes, by search or by their tag id", async () => {
    const owner = stack.freshUser();
    const other = stack.freshUser();
    const tag = (await stack.api("/api/tags", { method: "POST", token: owner.token(), json: { name: "private" } })).body.tag;
    await create(owner, { title: "Owner secret xylophone", tagIds: [tag.id] });
    expect((await list(other)).body).toEqual({ notes: [], total: 0 });
    expect((await list(other, "?search=xylophone")).body).toEqual({ notes: [], total: 0 });
    expect((await list(other, `?tagId=${tag.id}`)).body).toEqual({ notes: [], total: 0 });
    expect((await list(owner, `?tagId=${tag.id}`)).body.total).toBe(1);
  });

  it("a tagId no tag of yours has (a deleted tag) is a filter matching nothing: 200, not 404; a malformed one is 400", async () => {
    const user = stack.freshUser();
    const tag = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "short-lived" } })).body.tag;
    await create(user, { title: "Was tagged", tagIds: [tag.id] });
    expect((await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: user.token() })).status).toBe(204);
    const res = await list(user, `?tagId=${tag.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notes: [], total: 0 });
    const malformed = await list(user, "?tagId=not-a-uuid");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("Invalid query parameters");
  });

  it("the typical flow: search, create, search finds it", async () => {
    const user = stack.freshUser();
    const before = await list(user, "?search=standup");
    expect(before.body).toEqual({ notes: [], total: 0 });
    const created = await create(user, { title: "Standup", contentText: "yesterday: shipped search" });
    const after = await list(user, "?search=standup");
    expect(after.body.total).toBe(1);
    expect(after.body.notes[0]).toEqual(created);
  });
});
