import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNote, deleteNote } from "@/lib/notes/mutations";
import { createTag } from "@/lib/tags/mutations";
import { createTestDatabase, type TestDatabase } from "@/tests/helpers/test-db";
import { run } from "@/tests/identity/helpers";

// `npm run users` takes no secret on the command line: a password comes from
// a prompt (--password, on a terminal) or from stdin (--password-stdin).
// Going through a running `npm run dev` is covered by tests/e2e/readme.test.ts.

let database: TestDatabase;
const users = (args: string[], input?: string) =>
  run(process.execPath, ["--import", "tsx", "scripts/users.ts", ...args], { env: { DATABASE_URL: database.url, NOTES_DATA_DIR: database.url.slice("pglite:".length) }, input });

const credentialOf = (email: string) =>
  database.withDb((db) => db.account.findFirst({ where: { user: { email } }, select: { providerId: true, password: true } }));

beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.drop();
});

describe("npm run users", { timeout: 120_000 }, () => {
  it("add --password-stdin reads the browser password from stdin and stores only its hash", async () => {
    const result = await users(["add", "piped@example.com", "--password-stdin"], "correct horse battery\n");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: "piped@example.com" });
    const credential = await credentialOf("piped@example.com");
    expect(credential?.providerId).toBe("credential");
    expect(credential?.password).not.toContain("correct horse");
  });

  it("refuses a password given as an argument, without echoing it or creating the account", async () => {
    const result = await users(["add", "argv@example.com", "--password", "hunter2-secret"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("never from the command line");
    expect(`${result.stdout}${result.stderr}`).not.toContain("hunter2-secret");
    const list = await users(["list"]);
    expect(list.stdout).not.toContain("argv@example.com");
  });

  it("--password without a terminal points to --password-stdin", async () => {
    const result = await users(["add", "tty@example.com", "--password"], "");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("use --password-stdin");
  });

  it("add without a password makes an account for agents only; list shows it", async () => {
    expect((await users(["add", "agent-only@example.com"])).code).toBe(0);
    expect(await credentialOf("agent-only@example.com")).toBeNull();
    const list = await users(["list"]);
    expect(list.stdout.trim().split("\n").map((line) => JSON.parse(line).email)).toEqual(["piped@example.com", "agent-only@example.com"]);
  });

  it("remove erases the account with its notes, trash and tags; an unknown email is an error", async () => {
    const added = await users(["add", "leaving@example.com", "--password-stdin"], "a long enough password\n");
    expect(added.code, added.stderr).toBe(0);
    const { id } = JSON.parse(added.stdout) as { id: string };
    await database.withDb(async (db) => {
      const tag = await createTag(db, { userId: id, input: { name: "farewell" } });
      await createNote(db, { userId: id, input: { title: "Kept", tagIds: [tag.id] } });
      const { note } = await createNote(db, { userId: id, input: { title: "Trashed" } });
      await deleteNote(db, { id: note.id, userId: id });
    });

    const removed = await users(["remove", "Leaving@Example.com"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: { id, email: "leaving@example.com" } });
    const left = await database.withDb(async (db) => ({
      users: await db.user.count({ where: { id } }),
      notes: await db.note.count({ where: { userId: id } }),
      trash: await db.trashedNote.count({ where: { userId: id } }),
      tags: await db.tag.count({ where: { userId: id } }),
      accounts: await db.account.count({ where: { userId: id } }),
    }));
    expect(left).toEqual({ users: 0, notes: 0, trash: 0, tags: 0, accounts: 0 });
    expect((await users(["list"])).stdout).not.toContain("leaving@example.com");

    const again = await users(["remove", "leaving@example.com"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("No account for leaving@example.com");
    expect((await users(["remove", "not-an-email"])).code).toBe(2);
  });
});
