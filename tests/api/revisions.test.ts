import { describe, expect, it } from "vitest";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { useMcpClients } from "@/tests/helpers/mcp-client";
import { useApiStack, type SeededUser } from "@/tests/helpers/notes-app";

const MISSING_ID = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";

const paragraph = paragraphWithId;

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError?: boolean };

describe.each(TEST_DB_KINDS)("revisions: /api/notes/{id}/revisions and the MCP history tools (%s)", (kind) => {
  const stack = useApiStack(kind);
  const connect = useMcpClients(() => stack.app.url);

  async function mcp(user: SeededUser, name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const client = await connect(user.token());
    return (await client.callTool({ name, arguments: args })) as ToolResult;
  }
  const history = async (user: SeededUser, id: string, query = "") => {
    const res = await stack.api(`/api/notes/${id}/revisions${query}`, { token: user.token() });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("an agent's PATCH and an MCP update each record a revision marked with how the agent wrote, newest first", async () => {
    const user = stack.freshUser();
    const created = await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Plan", content: [paragraph("a", "first")] } });
    const id = created.body.note.id;
    const patched = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { content: [paragraph("a", "second")] } });
    expect(patched.status).toBe(200);
    const updated = await mcp(user, "update_note", { id, title: "Plan (MCP)" });
    expect(updated.isError, updated.content[0]?.text).toBeFalsy();

    const { revisions, nextCursor } = await history(user, id);
    expect(nextCursor).toBeUndefined();
    expect(revisions.map((revision: any) => [revision.version, revision.author, revision.title])).toEqual([
      [3, { kind: "mcp", email: user.email }, "Plan (MCP)"],
      [2, { kind: "api", email: user.email }, "Plan"],
      [1, { kind: "api", email: user.email }, "Plan"],
    ]);

    const page = await history(user, id, "?limit=2");
    expect(page.revisions.map((revision: any) => revision.version)).toEqual([3, 2]);
    expect((await history(user, id, `?limit=2&cursor=${page.nextCursor}`)).revisions.map((revision: any) => revision.version)).toEqual([1]);

    const listed = await mcp(user, "list_revisions", { id, limit: 1 });
    expect(listed.structuredContent).toMatchObject({ revisions: [{ version: 3, author: { kind: "mcp" } }], nextCursor: "3" });
  });

  it("reads a revision as JSON (block ids included) or Markdown, and restores it exactly as a new revision, honouring If-Match", async () => {
    const user = stack.freshUser();
    const label = (await stack.api("/api/tags", { method: "POST", token: user.token(), json: { name: "mine" } })).body.tag;
    const mine = [paragraph("p1", "my careful words"), { ...paragraph("p2", "centred"), props: { textColor: "blue", backgroundColor: "default", textAlignment: "center" } }];
    const id = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Mine", content: mine, contentText: "my careful words\ncentred", tagIds: [label.id] } })).body.note.id;
    await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { title: "Agent's", contentMarkdown: "Replaced by an agent", tagIds: [] } });
    const [, original] = (await history(user, id)).revisions;

    const json = await stack.api(`/api/notes/${id}/revisions/${original.id}`, { token: user.token() });
    expect(json.status).toBe(200);
    expect(json.body.revision).toMatchObject({ id: original.id, noteId: id, version: 1, title: "Mine", content: mine, contentText: "my careful words\ncentred", tags: [{ id: label.id, name: "mine" }] });
    const markdown = await stack.api(`/api/notes/${id}/revisions/${original.id}`, { token: user.token(), headers: { Accept: "text/markdown" } });
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(markdown.text).toContain("# Mine");
    expect(markdown.text).toContain("my careful words");
    const viaMcp = await mcp(user, "get_revision", { id, revisionId: original.id });
    expect(viaMcp.content[0]?.text).toContain("my careful words");

    const stale = await stack.api(`/api/notes/${id}/revisions/${original.id}/restore`, { method: "POST", token: user.token(), headers: { "If-Match": '"v1"' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error: "Note was modified", note: { title: "Agent's" } });
    const restored = await stack.api(`/api/notes/${id}/revisions/${original.id}/restore`, { method: "POST", token: user.token(), headers: { "If-Match": '"v2"' } });
    expect(restored.status).toBe(200);
    expect(restored.headers.get("etag")).toBe('"v3"');
    expect(restored.body.note).toMatchObject({ title: "Mine", content: mine, tags: [{ id: label.id }] });
    const now = await stack.api(`/api/notes/${id}`, { token: user.token() });
    expect(now.body.note.content).toEqual(mine);
    expect((await history(user, id)).revisions.map((revision: any) => [revision.version, revision.restoredFrom])).toEqual([[3, 1], [2, undefined], [1, undefined]]);

    const undo = await mcp(user, "restore_revision", { id, revisionId: (await history(user, id)).revisions[1].id, ifVersion: 3 });
    expect(undo.structuredContent).toMatchObject({ version: 4, note: { title: "Agent's" } });
  });

  it("a revision is the note as it was: the text an agent wrote, not one derived from the blocks", async () => {
    const user = stack.freshUser();
    const id = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Both", contentMarkdown: "block words X" } })).body.note.id;
    const patched = await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentText: "agent text Y", pinned: true } });
    expect(patched.body.note).toMatchObject({ contentText: "agent text Y", pinned: true });
    const [newest, oldest] = (await history(user, id)).revisions;
    const read = async (revision: { id: string }) => (await stack.api(`/api/notes/${id}/revisions/${revision.id}`, { token: user.token() })).body.revision;
    expect(await read(newest)).toMatchObject({ version: 2, contentText: "agent text Y", pinned: true });
    expect(await read(oldest)).toMatchObject({ version: 1, contentText: "block words X", pinned: false });
  });

  it("a restore is a revision of its own, and restoring the revision before it undoes it", async () => {
    const user = stack.freshUser();
    const id = (await stack.api("/api/notes", { method: "POST", token: user.token(), json: { title: "Draft", contentText: "first words" } })).body.note.id;
    await stack.api(`/api/notes/${id}`, { method: "PATCH", token: user.token(), json: { contentText: "first words and more" } });
    const [, first] = (await history(user, id)).revisions;
    const restored = await stack.api(`/api/notes/${id}/revisions/${first.id}/restore`, { method: "POST", token: user.token(), headers: { "If-Match": '"v2"' } });
    expect(restored.body.note.contentText).toBe("first words");
    const revisions = (await history(user, id)).revisions;
    expect(revisions.map((revision: any) => [revision.version, revision.restoredFrom])).toEqual([[3, 1], [2, undefined], [1, undefined]]);
    const undone = await stack.api(`/api/notes/${id}/revisions/${revisions[1].id}/restore`, { method: "POST", token: user.token(), headers: { "If-Match": '"v3"' } });
    expect(undone.body.note.contentText).toBe("first words and more");
  });

  it("is the owner's only, goes to the trash with the note, and answers bad ids and queries with the contract's errors", async () => {
    const owner = stack.freshUser();
    const stranger = stack.freshUser();
    const id = (await stack.api("/api/notes", { method: "POST", token: owner.token(), json: { title: "Private", contentText: "secret" } })).body.note.id;
    const [revision] = (await history(owner, id)).revisions;

    for (const path of [`/api/notes/${id}/revisions`, `/api/notes/${id}/revisions/${revision.id}`]) {
      const res = await stack.api(path, { token: stranger.token() });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: "Note not found" });
    }
    expect((await stack.api(`/api/notes/${id}/revisions/${revision.id}/restore`, { method: "POST", token: stranger.token() })).status).toBe(404);
    expect((await stack.api(`/api/notes/${id}/revisions/${MISSING_ID}`, { token: owner.token() })).body).toEqual({ error: "Revision not found" });
    expect((await stack.api(`/api/notes/${id}/revisions/nope`, { token: owner.token() })).body).toEqual({ error: "Invalid revision id" });
    expect((await stack.api(`/api/notes/nope/revisions`, { token: owner.token() })).body).toEqual({ error: "Invalid note id" });
    for (const query of ["?limit=0", "?limit=101", "?cursor=abc", "?cursor=0", "?cursor=9999999999"]) {
      const bad = await stack.api(`/api/notes/${id}/revisions${query}`, { token: owner.token() });
      expect(bad.status, query).toBe(400);
      expect(bad.body).toEqual({ error: "Invalid query parameters", details: expect.any(Object) });
    }
    // A revision has no block outline to address: format is json or markdown only, on REST and MCP alike.
    const outline = await stack.api(`/api/notes/${id}/revisions/${revision.id}?format=blocks`, { token: owner.token() });
    expect(outline.status).toBe(400);
    expect(outline.body).toMatchObject({ error: "Invalid query parameters", details: { fieldErrors: { format: expect.any(Array) } } });
    expect((await mcp(owner, "get_revision", { id, revisionId: revision.id, format: "blocks" })).structuredContent).toMatchObject({ status: 400, error: "Invalid query parameters" });
    expect((await stack.api(`/api/notes/${id}/revisions`, { method: "POST", token: owner.token() })).status).toBe(405);
    expect((await stack.api(`/api/notes/${id}/revisions`)).status).toBe(401);

    const before = await history(owner, id);
    expect((await stack.api(`/api/notes/${id}`, { method: "DELETE", token: owner.token() })).status).toBe(204);
    expect((await stack.api(`/api/notes/${id}/revisions`, { token: owner.token() })).status).toBe(404);
    expect((await stack.api(`/api/trash/${id}/restore`, { method: "POST", token: owner.token() })).status).toBe(200);
    expect(await history(owner, id)).toEqual(before);
  });
});
