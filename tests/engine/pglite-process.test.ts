import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow, listNotes } from "@/lib/notes/queries";
import { createUser } from "@/lib/users/mutations";
import { collectOutput, exited, waitForOutput } from "@/scripts/lib/processes";

// The benchmark's PGlite in a process of its own (bench/pglite-process.ts,
// `npm run bench -- --db pglite-process`): the data layer works through it
// as through a PostgreSQL server, one connection at a time.

const ROOT = path.resolve(import.meta.dirname, "../..");

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-pglite-process-"));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("serves the data layer over the wire protocol, refuses a second connection, rolls back what a client left open, and stops on SIGTERM", async () => {
  const pglite = await openPglite(dataDir);
  await migrateDatabase({ pglite });
  await pglite.close();

  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/pglite-process.ts"), dataDir], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const [, port] = await waitForOutput(child, collectOutput(child), /^(\d+)$/m, 60_000);
    const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    const handle = await createDb({ kind: "postgres", url }, { poolMax: 1 });
    try {
      const { db } = handle;
      const user = await createUser(db, { email: "wire@example.com" });
      const { note } = await createNote(db, { userId: user.id, input: { title: "Over the wire", contentText: "zephyrine harbour" } });
      await updateNote(db, { id: note.id, userId: user.id, input: { title: "Still over the wire" } });
      expect((await getNoteOrThrow(db, { id: note.id, userId: user.id })).note).toMatchObject({ title: "Still over the wire", contentText: "zephyrine harbour" });
      expect((await listNotes(db, { userId: user.id, search: "zephyr", limit: 20, offset: 0 })).notes.map((found) => found.id)).toEqual([note.id]);

      // The data layer's connection is open: PGlite is one session.
      const second = new pg.Client({ connectionString: url });
      await expect(second.connect()).rejects.toThrow("one connection at a time");
      await second.end().catch(() => undefined);
    } finally {
      await handle.close();
    }

    // A client gone in the middle of a transaction: the next one finds none open, and nothing of it.
    const connected = async () => {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => undefined);
      try {
        await client.connect();
        return client;
      } catch {
        return null;
      }
    };
    // The data layer's connection is given back once what it left is rolled back.
    let gone: pg.Client | null = null;
    await expect.poll(async () => (gone = await connected()) !== null).toBe(true);
    await gone!.query("BEGIN");
    await gone!.query("CREATE TABLE left_open (id int)");
    (gone! as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    let next: pg.Client | null = null;
    await expect.poll(async () => (next = await connected()) !== null).toBe(true);
    expect((await next!.query("SELECT to_regclass('left_open') AS found, now() = statement_timestamp() AS outside")).rows).toEqual([{ found: null, outside: true }]);
    await next!.end();

    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
  } finally {
    child.kill("SIGKILL");
  }
}, 120_000);
