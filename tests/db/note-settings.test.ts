import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Prisma, queryRows } from "@/lib/db/client";
import { createNote, deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { INITIAL_SETTINGS, NOTE_SETTINGS, SETTING_KEYS, settingColumn, settingsOf, type NoteSettings } from "@/lib/notes/settings";
import { listRevisions } from "@/lib/revisions/queries";
import { restoreRevision } from "@/lib/revisions/mutations";
import { restoreTrashedNote } from "@/lib/trash/mutations";
import { listTrash } from "@/lib/trash/queries";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useTestDatabase } from "@/tests/helpers/test-db";

/** Each setting at a value other than its initial one. */
function otherSettings(): NoteSettings {
  return Object.fromEntries(
    SETTING_KEYS.map((key) => {
      const initial: unknown = NOTE_SETTINGS[key].initial;
      if (typeof initial !== "boolean") throw new Error(`Give this test another value of the setting ${key}`);
      return [key, !initial];
    }),
  ) as NoteSettings;
}

// A setting declared in lib/notes/settings.ts travels with the note through
// every layer that moves a note whole: this follows every setting at once.
describe.each(TEST_DB_KINDS)("a note's settings, declared once (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("has a column in notes, trashed_notes and note_revisions for every setting", async () => {
    await database.withDb(async (db) => {
      const rows = await queryRows<{ table_name: string; column_name: string }>(db, Prisma.sql`
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name IN ('notes', 'trashed_notes', 'note_revisions')`);
      const columns = (table: string) => rows.filter((row) => row.table_name === table).map((row) => row.column_name);
      for (const table of ["notes", "trashed_notes", "note_revisions"]) expect(columns(table)).toEqual(expect.arrayContaining(SETTING_KEYS.map(settingColumn)));
    });
  });

  it("keeps every setting through a write, the trash, the history and a restore", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const other = otherSettings();
      const { note } = await createNote(db, { userId: user.id, input: { title: "Set", content: [], contentText: "", ...other } });
      expect(settingsOf(note)).toEqual(other);

      // Back to the initial values: a version of its own, each version recording its settings.
      await updateNote(db, { id: note.id, userId: user.id, input: INITIAL_SETTINGS });
      expect(settingsOf((await getNoteOrThrow(db, { id: note.id, userId: user.id })).note)).toEqual(INITIAL_SETTINGS);
      const { revisions } = await listRevisions(db, { noteId: note.id, userId: user.id, limit: 10 });
      expect(revisions.map((revision) => [revision.version, settingsOf(revision)])).toEqual([
        [2, INITIAL_SETTINGS],
        [1, other],
      ]);

      // Restoring the first version puts its settings back.
      const restored = await restoreRevision(db, { noteId: note.id, revisionId: revisions[1]!.id, userId: user.id });
      expect(settingsOf(restored.note)).toEqual(other);

      // The trash keeps them, and so does the note it gives back.
      await deleteNote(db, { id: note.id, userId: user.id });
      const trash = await listTrash(db, { userId: user.id, limit: 10, offset: 0 });
      expect(settingsOf(trash.notes[0]!)).toEqual(other);
      expect(settingsOf((await restoreTrashedNote(db, { id: note.id, userId: user.id })).note)).toEqual(other);
    });
  });
});
