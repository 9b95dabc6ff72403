import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { startNotesStack, type NotesStack, type SeededUser } from "@/tests/helpers/notes-app";

describe.each(TEST_DB_KINDS)("/api/tags (%s)", (kind) => {
  let stack: NotesStack;
  beforeAll(async () => {
    stack = await startNotesStack(kind);
  });
  afterAll(() => stack?.stop());

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
});
