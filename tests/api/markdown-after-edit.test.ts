import { describe, expect, it } from "vitest";
import { testEnv } from "@/tests/helpers/env";
import { useApiStack } from "@/tests/helpers/notes-app";

// The test reads the stored row beside the app.
describe.skipIf(!testEnv.TEST_DATABASE_URL)("a targeted edit's Markdown (postgres)", () => {
  const stack = useApiStack("postgres", { users: 1 });

  it("is stored with the edit: the edit's answer comes once the note's Markdown is there, and a Markdown read returns it", async () => {
    const user = stack.freshUser();
    const note = await stack.createNote(user, { title: "Later", contentMarkdown: "one\n\n* a\n* b" });
    const res = await stack.api(`/api/notes/${note.id}/edits`, { method: "POST", token: user.token(), json: { operations: [{ op: "append", markdown: "two" }] } });
    expect(res.status, res.text).toBe(200);
    const stored = await stack.database.withDb((db) => db.note.findUnique({ where: { id: note.id }, select: { contentMarkdown: true, version: true } }));
    expect(stored).toEqual({ contentMarkdown: "one\n\n* a\n* b\n\ntwo", version: 2 });
    const read = await stack.api(`/api/notes/${note.id}?format=markdown`, { token: user.token() });
    expect(read.status, read.text).toBe(200);
    expect(read.text).toBe("# Later\n\none\n\n* a\n* b\n\ntwo\n");
  });
});
