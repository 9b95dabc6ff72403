import { describe, expect, it } from "vitest";
import { waitFor } from "@/scripts/lib/processes";
import { testEnv } from "@/tests/helpers/env";
import { useApiStack } from "@/tests/helpers/notes-app";

// On PostgreSQL only: the test reads the stored row beside the app, which the
// embedded database (one client at a time) does not allow.
describe.skipIf(!testEnv.TEST_DATABASE_URL)("a targeted edit's Markdown (postgres)", () => {
  const stack = useApiStack("postgres", { users: 1 });

  it("is rendered and stored after the edit's response, before any Markdown read", async () => {
    const user = stack.freshUser();
    const note = await stack.createNote(user, { title: "Later", contentMarkdown: "one" });
    const res = await stack.api(`/api/notes/${note.id}/edits`, { method: "POST", token: user.token(), json: { operations: [{ op: "append", markdown: "two" }] } });
    expect(res.status, res.text).toBe(200);
    const stored = () => stack.database.withDb((db) => db.note.findUnique({ where: { id: note.id }, select: { contentMarkdown: true, version: true } }));
    await waitFor(async () => (await stored())?.contentMarkdown != null, { timeoutMs: 30_000, message: "the edited note's Markdown to be stored" });
    expect(await stored()).toEqual({ contentMarkdown: "one\n\ntwo", version: 2 });
  });
});
