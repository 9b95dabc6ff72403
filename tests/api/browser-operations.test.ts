import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { personAuthor } from "@/lib/db/author";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/body/document";
import { createNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { listPaneNotesOperation, saveNoteOperation } from "@/lib/operations/browser";
import { parseOperationInput, type Caller, type OperationCore } from "@/lib/operations/operation";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { AppError } from "@/lib/errors";
import { useTestDatabase } from "@/tests/helpers/test-db";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text, styles: {} }] });

/** A list row's title: its pieces, a search's matches marked. */
type Row = { title: { text: string }[] };
const titleOf = (row: Row) => row.title.map((piece) => piece.text).join("");

/** The AppError a call fails with. */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (caught: unknown) => caught);
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

// The operations only the browser offers, called as a server action calls
// them (lib/actions/run-action.ts): the operation's own parse, then its run
// for the person signed in.
describe.each(TEST_DB_KINDS)("the browser's own operations (%s)", (kind) => {
  const database = useTestDatabase(kind);
  const person = async (db: Db): Promise<Caller> => {
    const user = await createUser(db, { email: `${randomUUID()}@example.com` });
    return { userId: user.id, email: user.email, db, author: personAuthor(user, randomUUID()) };
  };
  const call = async (op: OperationCore, caller: Caller, given: Parameters<typeof parseOperationInput>[1]) => op.run(caller, parseOperationInput(op, given));

  it("only the browser's session may run them", () => {
    expect(saveNoteOperation.callers).toEqual(["session"]);
    expect(listPaneNotesOperation.callers).toEqual(["session"]);
  });

  it("a save at version 0 creates the note with the browser's id, its text derived here and what a database cannot hold dropped", async () => {
    await database.withDb(async (db) => {
      const caller = await person(db);
      const id = randomUUID();
      const body = { version: 0, title: "  Lisbon\u0000 ", content: [paragraph("Alfama\u0000 and Belém")], pinned: true };
      const saved = await call(saveNoteOperation, caller, { ids: { id }, body });
      expect(saved).toMatchObject({ version: 1, note: { id, title: "Lisbon", contentText: "Alfama and Belém", pinned: true } });
      // The same first save again (its answer lost): the same note.
      expect(await call(saveNoteOperation, caller, { ids: { id }, body })).toEqual(saved);
      // Then a save on top of version 1; one at a version the note has left writes nothing.
      const next = await call(saveNoteOperation, caller, { ids: { id }, body: { version: 1, title: "" } });
      expect(next).toMatchObject({ version: 2, note: { title: "Untitled", contentText: "Alfama and Belém" } });
      const stale = await appErrorOf(call(saveNoteOperation, caller, { ids: { id }, body: { version: 1, content: [] } }));
      expect(stale.code).toBe("NOTE_MODIFIED");
      expect((await getNoteOrThrow(db, { id, userId: caller.userId })).version).toBe(2);
    });
  });

  it("refuses what is no save, and a body over the limit, naming why; nothing is written", async () => {
    await database.withDb(async (db) => {
      const caller = await person(db);
      const id = randomUUID();
      const malformed = await appErrorOf(call(saveNoteOperation, caller, { ids: { id }, body: { version: 0, tagIds: ["not-a-tag"] } }));
      expect(malformed).toMatchObject({ code: "INVALID_BODY", fields: { details: { fieldErrors: { tagIds: [expect.any(String)] } } } });
      const badId = await appErrorOf(call(saveNoteOperation, caller, { ids: { id: "nope" }, body: { version: 0 } }));
      expect(badId.code).toBe("INVALID_NOTE_ID");
      const huge = [paragraph("x".repeat(NOTE_CONTENT_MAX_BYTES))];
      const tooLarge = await appErrorOf(call(saveNoteOperation, caller, { ids: { id }, body: { version: 0, content: huge } }));
      expect(tooLarge.fields).toMatchObject({ details: { fieldErrors: { content: [expect.stringContaining("This note is too large to save")] } } });
      expect(await appErrorOf(getNoteOrThrow(db, { id, userId: caller.userId }))).toMatchObject({ code: "NOTE_NOT_FOUND" });
    });
  });

  it("the pane beside an open note lists the person's notes, pinned first, with a search", async () => {
    await database.withDb(async (db) => {
      const caller = await person(db);
      await createNote(db, { userId: caller.userId, input: { title: "Groceries", contentText: "milk" } });
      await createNote(db, { userId: caller.userId, input: { title: "Trip", contentText: "Lisbon", pinned: true } });
      const all = (await call(listPaneNotesOperation, caller, { query: {} })) as { pinned: Row[]; others: Row[]; tags: unknown[] };
      expect(all.pinned.map(titleOf)).toEqual(["Trip"]);
      expect(all.others.map(titleOf)).toEqual(["Groceries"]);
      const found = (await call(listPaneNotesOperation, caller, { query: { q: "milk" } })) as typeof all;
      expect([...found.pinned, ...found.others].map(titleOf)).toEqual(["Groceries"]);
      expect((await appErrorOf(call(listPaneNotesOperation, caller, { query: { tag: "not-a-tag" } }))).code).toBe("INVALID_QUERY");
    });
  });
});
