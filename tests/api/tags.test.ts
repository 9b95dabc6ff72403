import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

describe.each(TEST_DB_KINDS)("/api/tags (%s)", (kind) => {
  const stack = useApiStack(kind);

  const createTag = (user: SeededUser, name: unknown) =>
    stack.api("/api/tags", { method: "POST", token: user.token(), json: { name } });

  it("POST creates a trimmed tag: 201 { tag }", async () => {
    const user = stack.freshUser();
    const res = await createTag(user, "  Work  ");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ tag: { id: expect.any(String), name: "Work", createdAt: expect.any(String) } });
  });

  it("GET lists the user's tags by name, case-insensitively", async () => {
    const user = stack.freshUser();
    for (const name of ["beta", "Alpha", "gamma", "Delta"]) await createTag(user, name);
    const res = await stack.api("/api/tags", { token: user.token() });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t: { name: string }) => t.name)).toEqual(["Alpha", "beta", "Delta", "gamma"]);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await stack.api("/api/tags", { token: stack.freshUser().token() })).body).toEqual({ tags: [] });
  });

  it("409 for a duplicate name in any case; other users may use the same name", async () => {
    const user = stack.freshUser();
    expect((await createTag(user, "Reading")).status).toBe(201);
    const dup = await createTag(user, " reading ");
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "A tag with this name already exists" });
    expect((await createTag(stack.freshUser(), "reading")).status).toBe(201);
  });

  it.each([[""], ["   "], ["x".repeat(51)], [7], ["a\u0000b"]])("400 Invalid request body for name %j", async (name) => {
    const res = await createTag(stack.freshUser(), name);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
  });

  it("accepts a 50-character name", async () => {
    expect((await createTag(stack.freshUser(), "y".repeat(50))).status).toBe(201);
  });

  it("DELETE removes the tag and takes it off notes, which remain", async () => {
    const user = stack.freshUser();
    const tag = (await createTag(user, "temp")).body.tag;
    const note = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "t", tagIds: [tag.id] } })).body.note;
    expect(note.tags).toHaveLength(1);
    const res = await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: user.token() });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const after = await stack.api(`/api/notes/${note.id}`, { token: user.token() });
    expect(after.body.note.tags).toEqual([]);
    expect((await stack.api("/api/tags", { token: user.token() })).body.tags).toEqual([]);
    const again = await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: user.token() });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "Tag not found" });
  });

  it("another user's tag is a 404 and stays; a malformed id is a 400", async () => {
    const owner = stack.freshUser();
    const tag = (await createTag(owner, "mine")).body.tag;
    const res = await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: stack.freshUser().token() });
    expect(res.status).toBe(404);
    expect((await stack.api("/api/tags", { token: owner.token() })).body.tags).toHaveLength(1);
    const malformed = await stack.api("/api/tags/nope", { method: "DELETE", token: owner.token() });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: "Invalid tag id" });
  });

  describe("PATCH /api/tags/{id}", () => {
    const renameTag = (user: SeededUser, id: string, body: unknown) =>
      stack.api(`/api/tags/${id}`, { method: "PATCH", token: user.token(), json: body });

    it("renames a tag (trimmed): 200 { tag } with the same id and createdAt; its notes carry the new name", async () => {
      const user = stack.freshUser();
      const tag = (await createTag(user, "draft")).body.tag;
      const note = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "t", tagIds: [tag.id] } })).body.note;
      const res = await renameTag(user, tag.id, { name: "  Final  " });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tag: { id: tag.id, name: "Final", createdAt: tag.createdAt } });
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect((await stack.api(`/api/notes/${note.id}`, { token: user.token() })).body.note.tags).toEqual([res.body.tag]);
      expect((await stack.api("/api/tags", { token: user.token() })).body.tags).toEqual([res.body.tag]);
    });

    it("a rename or a deletion changes the ETag of each note carrying the tag: If-None-Match with the old one is a 200, If-Match with it a 412", async () => {
      const user = stack.freshUser();
      const [tag, other] = [(await createTag(user, "draft")).body.tag, (await createTag(user, "later")).body.tag];
      const create = (tagIds: string[]) => stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "t", tagIds } });
      const [tagged, untouched] = [await create([tag.id]), await create([other.id])];
      const [id, etag] = [tagged.body.note.id as string, tagged.headers.get("etag")!];
      const conditionalGet = (noteId: string, held: string) => stack.api(`/api/notes/${noteId}`, { token: user.token(), headers: { "if-none-match": held } });
      expect((await conditionalGet(id, etag)).status).toBe(304);

      expect((await renameTag(user, tag.id, { name: "Draft" })).status).toBe(200);
      const renamed = await conditionalGet(id, etag);
      expect(renamed.status).toBe(200);
      expect(renamed.headers.get("etag")).not.toBe(etag);
      expect(renamed.body.note.tags.map((t: { name: string }) => t.name)).toEqual(["Draft"]);
      expect((await conditionalGet(untouched.body.note.id, untouched.headers.get("etag")!)).status).toBe(304);
      const stale = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), headers: { "if-match": etag }, json: { title: "u" } });
      expect(stale.status).toBe(412);
      expect(stale.headers.get("etag")).toBe(renamed.headers.get("etag"));
      const saved = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), headers: { "if-match": renamed.headers.get("etag")! }, json: { title: "u" } });
      expect(saved.status).toBe(200);

      expect((await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: user.token() })).status).toBe(204);
      const untagged = await conditionalGet(id, saved.headers.get("etag")!);
      expect(untagged.status).toBe(200);
      expect(untagged.body.note.tags).toEqual([]);
      expect((await conditionalGet(untouched.body.note.id, untouched.headers.get("etag")!)).status).toBe(304);
    });

    it("a change of case only is allowed; another tag's name in any case is a 409 and nothing changes", async () => {
      const user = stack.freshUser();
      const ideas = (await createTag(user, "ideas")).body.tag;
      const todo = (await createTag(user, "todo")).body.tag;
      expect((await renameTag(user, ideas.id, { name: "Ideas" })).body.tag.name).toBe("Ideas");
      const dup = await renameTag(user, todo.id, { name: " IDEAS " });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ error: "A tag with this name already exists" });
      expect((await stack.api("/api/tags", { token: user.token() })).body.tags.map((t: { name: string }) => t.name)).toEqual(["Ideas", "todo"]);
      // Names are per user: another user's tag of that name is no conflict.
      const other = stack.freshUser();
      const theirs = (await createTag(other, "x")).body.tag;
      expect((await renameTag(other, theirs.id, { name: "ideas" })).status).toBe(200);
    });

    it.each([[{ name: "" }], [{ name: "   " }], [{ name: "x".repeat(51) }], [{ name: 7 }], [{}], [[]]])("400 Invalid request body for %j", async (body) => {
      const user = stack.freshUser();
      const tag = (await createTag(user, "keep")).body.tag;
      const res = await renameTag(user, tag.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Invalid request body", details: expect.any(Object) });
      expect((await stack.api("/api/tags", { token: user.token() })).body.tags).toEqual([tag]);
    });

    it("400 for a body that is not JSON, 415 without a JSON Content-Type", async () => {
      const user = stack.freshUser();
      const tag = (await createTag(user, "keep")).body.tag;
      const bad = await stack.api(`/api/tags/${tag.id}`, { method: "PATCH", token: user.token(), raw: "{", headers: { "content-type": "application/json" } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: "Request body must be valid JSON" });
      const plain = await stack.api(`/api/tags/${tag.id}`, { method: "PATCH", token: user.token(), raw: '{"name":"x"}', headers: { "content-type": "text/plain" } });
      expect(plain.status).toBe(415);
    });

    it("another user's tag and a deleted tag are 404 and stay as they were; a malformed id is a 400", async () => {
      const owner = stack.freshUser();
      const tag = (await createTag(owner, "mine")).body.tag;
      const foreign = await renameTag(stack.freshUser(), tag.id, { name: "stolen" });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Tag not found" });
      expect((await stack.api("/api/tags", { token: owner.token() })).body.tags).toEqual([tag]);
      await stack.api(`/api/tags/${tag.id}`, { method: "DELETE", token: owner.token() });
      expect((await renameTag(owner, tag.id, { name: "again" })).status).toBe(404);
      const malformed = await renameTag(owner, "nope", { name: "x" });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: "Invalid tag id" });
    });

    it("401 without a token", async () => {
      const res = await stack.api("/api/tags/4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", { method: "PATCH", json: { name: "x" } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Missing X-Session-Token header" });
    });
  });
});
