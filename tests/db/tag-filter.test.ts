import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createNote } from "@/lib/notes/mutations";
import { listNotes } from "@/lib/notes/queries";
import { createTag, deleteTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { useTestDatabase } from "@/tests/helpers/test-db";

// The contract's tagId is a filter ("only notes with this tag"): a well-formed
// id no tag of the account has (deleted, another account's, never made) simply
// matches no note. Only a malformed one is an error (400, in the route).
describe.each(TEST_DB_KINDS)("GET /api/notes?tagId= in the data layer (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("a tag that does not exist (deleted, another account's, never made) lists no notes, with a total of 0, under every other filter too", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const other = await createUser(db, { email: `${randomUUID()}@example.com` });
      const deleted = await createTag(db, { userId: user.id, input: { name: "gone" } });
      const kept = await createTag(db, { userId: user.id, input: { name: "kept" } });
      const foreign = await createTag(db, { userId: other.id, input: { name: "theirs" } });
      await createNote(db, { userId: user.id, input: { title: "Tagged twice", contentText: "findable", tagIds: [deleted.id, kept.id], pinned: true } });
      await createNote(db, { userId: other.id, input: { title: "Theirs", contentText: "findable", tagIds: [foreign.id] } });
      await deleteTag(db, { id: deleted.id, userId: user.id });

      for (const tagId of [deleted.id, foreign.id, randomUUID()]) {
        for (const filters of [{}, { pinned: true }, { pinned: false }, { search: "findable" }]) {
          expect(await listNotes(db, { userId: user.id, tagId, limit: 100, offset: 0, ...filters }), `${tagId} ${JSON.stringify(filters)}`).toEqual({ notes: [], versions: [], total: 0 });
        }
      }
      expect((await listNotes(db, { userId: user.id, tagId: kept.id, limit: 100, offset: 0 })).total).toBe(1);
    });
  });
});
