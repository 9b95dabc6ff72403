import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RevisionAuthor } from "@/lib/db/author";
import { createDb, type Db } from "@/lib/db/client";
import { migrateDatabaseTarget } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { storeAttachment } from "@/lib/attachments/mutations";
import { readAttachment } from "@/lib/attachments/queries";
import { createNote, deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { listRevisions } from "@/lib/revisions/queries";
import { createTag } from "@/lib/tags/mutations";
import { listTrash } from "@/lib/trash/queries";
import { createUser } from "@/lib/users/mutations";
import { openDatabase } from "@/scripts/lib/database";
import { startEmbeddedPostgres } from "@/scripts/lib/embedded-postgres";
import { isAlive, waitFor } from "@/scripts/lib/processes";
import { solidPng } from "@/tests/helpers/images";
import { paragraphWithId } from "@/tests/helpers/rich-notes";

// The embedded PostgreSQL server as the scripts start it, in a data folder of
// the test's own: an earlier release's PGlite folder moved in, a server left
// behind by a killed run, a folder already in use.

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(import.meta.dirname, "fixtures/start-embedded-postgres.ts");

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-embedded-"));
  // Run as root, the server runs as the postgres user, which must reach its folder.
  fs.chmodSync(dataDir, 0o755);
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every row of every table of the app's schema, as JSON text, table by table. */
async function allRows(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<Record<string, string[]>> {
  const tables = (await query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1")).rows.map(
    (row) => row.tablename as string,
  );
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    result[table] = (await query(`SELECT row_to_json(t)::text AS row FROM "${table}" t ORDER BY 1`)).rows.map((row) => row.row as string);
  }
  return result;
}

/** What today's release writes through its own data layer: an account, tags, notes with history, an attachment, a trashed note. */
async function writeNotes(db: Db) {
  const user = await createUser(db, { email: "moved@example.com", password: "a-long-enough-password" });
  const api: RevisionAuthor = { kind: "api", email: user.email, agent: "bot" };
  const tag = await createTag(db, { userId: user.id, input: { name: "Travel" } });
  const { note } = await createNote(db, {
    userId: user.id,
    author: api,
    input: { title: "Lisbon", content: [paragraphWithId("a", "Trams and tiles")], tagIds: [tag.id] },
  });
  await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [paragraphWithId("a", "Trams, tiles and custard tarts")] } });
  const { note: gone } = await createNote(db, { userId: user.id, author: api, input: { title: "Old list", contentText: "to the trash" } });
  await deleteNote(db, { id: gone.id, userId: user.id });
  const attachment = await storeAttachment(db, { userId: user.id, bytes: solidPng(4, 4, [200, 10, 10]), declaredType: "image/png" });
  return { userId: user.id, noteId: note.id, attachmentId: attachment.id };
}

async function readBack(db: Db, ids: { userId: string; noteId: string; attachmentId: string }) {
  return {
    note: await getNoteOrThrow(db, { id: ids.noteId, userId: ids.userId }),
    revisions: await listRevisions(db, { noteId: ids.noteId, userId: ids.userId, limit: 50 }),
    trash: await listTrash(db, { userId: ids.userId, limit: 10, offset: 0 }),
    attachment: await readAttachment(db, { id: ids.attachmentId, userId: ids.userId }),
  };
}

describe("the embedded PostgreSQL server", () => {
  it("moves an earlier release's PGlite folder in whole: every row of every table, and the app reads the same notes", async () => {
    const oldDir = path.join(dataDir, "pglite");
    const oldTarget = { kind: "pglite" as const, dataDir: oldDir };
    await migrateDatabaseTarget(oldTarget);
    const old = await createDb(oldTarget);
    let ids: Awaited<ReturnType<typeof writeNotes>>;
    let before: Awaited<ReturnType<typeof readBack>>;
    try {
      ids = await writeNotes(old.db);
      before = await readBack(old.db, ids);
    } finally {
      await old.close();
    }
    const pglite = await openPglite(oldDir);
    const oldRows = await allRows((sql) => pglite.query(sql));
    await pglite.close();
    expect(oldRows.notes).toHaveLength(1);
    expect(oldRows.note_revisions!.length).toBeGreaterThanOrEqual(2);
    expect(oldRows.trashed_notes).toHaveLength(1);
    expect(oldRows.attachments).toHaveLength(1);

    const lines: string[] = [];
    const database = await openDatabase(undefined, { kind: "embedded", dir: path.join(dataDir, "postgres") }, (line) => lines.push(line));
    try {
      expect(lines.join("\n")).toMatch(/Moved 1 accounts, 1 notes, \d+ revisions, 1 tags, 1 attachments and 1 trashed notes/);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        expect(await allRows((sql) => client.query(sql))).toEqual(oldRows);
      } finally {
        await client.end();
      }
      const moved = await createDb(database.target);
      try {
        expect(await readBack(moved.db, ids)).toEqual(before);
        // And it goes on working as a database of its own: the counters and triggers came with it.
        await updateNote(moved.db, { id: ids.noteId, userId: ids.userId, input: { title: "Lisbon in May" } });
        expect((await listRevisions(moved.db, { noteId: ids.noteId, userId: ids.userId, limit: 50 })).revisions.length).toBe(before.revisions.revisions.length + 1);
      } finally {
        await moved.close();
      }
    } finally {
      await database.stop();
    }
    // The old folder is kept aside, not deleted, and not moved again on the next start.
    expect(fs.existsSync(oldDir)).toBe(false);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith("pglite-moved-"))).toHaveLength(1);
    const again = await openDatabase(undefined, { kind: "embedded", dir: path.join(dataDir, "postgres") }, (line) => lines.push(line));
    await again.stop();
    expect(lines.filter((line) => line.startsWith("Moved"))).toHaveLength(1);
  }, 120_000);

  it("refuses a folder another process runs, and stops a server a killed run left behind before starting", async () => {
    const dir = path.join(dataDir, "postgres");
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, dir], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const serverPid = await waitFor(() => /^started (\d+)$/m.exec(stdout)?.[1], { timeoutMs: 60_000, message: "the other process to start the server" });

    await expect(startEmbeddedPostgres({ dir })).rejects.toThrow(/is in use by another process \(pid \d+\)/);

    // Killed without a chance to stop its server: the server runs on, orphaned.
    child.kill("SIGKILL");
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, { timeoutMs: 10_000, message: "the process to die" });
    expect(isAlive(Number(serverPid))).toBe(true);

    const server = await startEmbeddedPostgres({ dir });
    try {
      expect(isAlive(Number(serverPid))).toBe(false);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query("SELECT current_database() AS name")).rows).toEqual([{ name: "notes" }]);
      await client.end();
    } finally {
      await server.stop();
    }
  }, 120_000);
});
