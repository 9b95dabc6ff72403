import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, deleteNote, discardEmptyNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import type { RevisionAuthor } from "@/lib/revisions/author";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions, notesLastChangedByAgent } from "@/lib/revisions/queries";
import { createTag } from "@/lib/tags/mutations";
import { purgeExpiredTrash } from "@/lib/trash/move";
import { deleteTrashedNote, restoreTrashedNote } from "@/lib/trash/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { appErrorOf, useTestDatabase } from "@/tests/helpers/test-db";

const DAY_MS = 24 * 60 * 60 * 1000;

const paragraph = paragraphWithId;

/** A deterministic pseudo-random sequence, so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe.each(TEST_DB_KINDS)("note revisions in the data layer (%s)", (kind) => {
  const database = useTestDatabase(kind);

  const setUp = async (db: Db) => {
    const user = await createUser(db, { email: `${randomUUID()}@example.com` });
    const person: RevisionAuthor = { kind: "browser", email: user.email };
    const api: RevisionAuthor = { kind: "api", email: user.email, agent: "research bot" };
    const mcp: RevisionAuthor = { kind: "mcp", email: user.email };
    return { user, person, api, mcp };
  };
  const history = async (db: Db, noteId: string, userId: string) => (await listRevisions(db, { noteId, userId, limit: 100 })).revisions;

  it("records who wrote each change: an agent's REST call, an agent's MCP call, a person, a script", async () => {
    await database.withDb(async (db) => {
      const { user, person, api, mcp } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Plan", content: [paragraph("a", "one")] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [paragraph("a", "two")] } });
      await updateNote(db, { id: note.id, userId: user.id, author: mcp, input: { title: "Plan B" } });
      await updateNote(db, { id: note.id, userId: user.id, input: { contentText: "by a script" } });

      const revisions = await history(db, note.id, user.id);
      expect(revisions.map((revision) => [revision.version, revision.author])).toEqual([
        [4, { kind: "system", email: null }],
        [3, { kind: "mcp", email: user.email }],
        [2, { kind: "api", email: user.email, agent: "research bot" }],
        [1, { kind: "browser", email: user.email }],
      ]);
      expect(revisions.map((revision) => revision.title)).toEqual(["Plan B", "Plan B", "Plan", "Plan"]);
      expect(await notesLastChangedByAgent(db, { userId: user.id, noteIds: [note.id] })).toEqual(new Set());
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { title: "Plan C" } });
      expect(await notesLastChangedByAgent(db, { userId: user.id, noteIds: [note.id] })).toEqual(new Set([note.id]));
    });
  });

  it("every revision reads back exactly the content it recorded, through chains longer than a keyframe's reach", async () => {
    await database.withDb(async (db) => {
      const { user, api, mcp } = await setUp(db);
      const next = random(kind === "pglite" ? 7 : 11);
      let blocks = Array.from({ length: 30 }, (_, i) => paragraph(`b${i}`, `block ${i}`));
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Long", content: blocks } });
      const expected = new Map<number, unknown>([[1, blocks]]);
      // 130 edits: more than the 100 changes a keyframe may be followed by.
      for (let step = 0; step < 130; step += 1) {
        const at = Math.floor(next() * blocks.length);
        const roll = next();
        blocks = [...blocks];
        if (roll < 0.5) blocks[at] = paragraph(blocks[at]!.id, `edited ${step}`);
        else if (roll < 0.7) blocks.splice(at, 0, paragraph(`n${step}`, `inserted ${step}`));
        else if (roll < 0.85 && blocks.length > 1) blocks.splice(at, 1);
        else blocks.push(paragraph(`e${step}`, `appended ${step}`));
        const saved = await updateNote(db, { id: note.id, userId: user.id, author: step % 3 === 0 ? mcp : api, input: { content: blocks } });
        expected.set(saved.version, blocks);
      }
      const revisions = [];
      for (let cursor: string | undefined; ; ) {
        const page = await listRevisions(db, { noteId: note.id, userId: user.id, limit: 40, cursor: cursor === undefined ? undefined : Number(cursor) });
        revisions.push(...page.revisions);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(revisions.map((revision) => revision.version)).toEqual([...expected.keys()].reverse());
      for (const revision of revisions) {
        const { revision: read } = await getRevisionOrThrow(db, { noteId: note.id, revisionId: revision.id, userId: user.id });
        expect(read.content, `version ${revision.version}`).toEqual(expected.get(revision.version));
      }
      const stored = await db.noteRevision.findMany({ where: { noteId: note.id }, select: { keyframe: true } });
      expect(stored.filter((row) => row.keyframe).length).toBeGreaterThanOrEqual(2);
    });
  });

  it("stores a one-block edit of a 1,000-block note as that block, not the note", async () => {
    await database.withDb(async (db) => {
      const { user, api } = await setUp(db);
      const blocks = Array.from({ length: 1000 }, (_, i) => paragraph(`b${i}`, `paragraph ${i} of a long note`));
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Big", content: blocks } });
      const edited = blocks.map((block, i) => (i === 500 ? paragraph(block.id, "changed") : block));
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: edited } });
      const [latest] = await db.noteRevision.findMany({ where: { noteId: note.id }, orderBy: { version: "desc" }, take: 1 });
      expect(latest).toMatchObject({ keyframe: false, keepHead: 500, keepTail: 499, blocks: [edited[500]] });
    });
  });

  it("folds a person's saves a few minutes apart into one revision, never with an agent's", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Draft", content: [] } });
      let content: ReturnType<typeof paragraph>[] = [];
      for (const word of ["I", "I think", "I think so"]) {
        content = [paragraph("p", word), paragraph("q", "tail")];
        await updateNote(db, { id: note.id, userId: user.id, author: person, input: { content } });
      }
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [...content, paragraph("r", "agent")] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { title: "Agent title" } });
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { content: [paragraph("p", "mine again")] } });

      const revisions = await history(db, note.id, user.id);
      expect(revisions.map((revision) => [revision.author.kind, revision.version])).toEqual([
        ["browser", 7],
        ["api", 6],
        ["api", 5],
        ["browser", 4],
      ]);
      const { revision: personal } = await getRevisionOrThrow(db, { noteId: note.id, revisionId: revisions[3]!.id, userId: user.id });
      expect(personal.content).toEqual(content);
      // Older than the window: the next save starts a revision of its own.
      await db.noteRevision.update({ where: { id: revisions[0]!.id }, data: { createdAt: new Date(Date.now() - 10 * 60 * 1000) } });
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { content: [paragraph("p", "later")] } });
      expect((await history(db, note.id, user.id)).length).toBe(5);
    });
  });

  it("restores a revision exactly, as a new revision by whoever restores, honouring If-Match", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const tag = await createTag(db, { userId: user.id, input: { name: `t-${randomUUID()}` } });
      const mine = [paragraph("x1", "my words"), { ...paragraph("x2", "coloured"), props: { textColor: "red", backgroundColor: "default", textAlignment: "center" } }];
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Mine", content: mine, tagIds: [tag.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { title: "Overwritten", content: [paragraph("z", "agent text")], tagIds: [] } });
      const [, original] = await history(db, note.id, user.id);

      expect(await appErrorOf(restoreRevision(db, { noteId: note.id, revisionId: original!.id, userId: user.id, author: person, ifVersion: 1 }))).toMatchObject({ status: 412 });
      const restored = await restoreRevision(db, { noteId: note.id, revisionId: original!.id, userId: user.id, author: person, ifVersion: 2 });
      expect(restored.version).toBe(3);
      const current = await getNoteOrThrow(db, { id: note.id, userId: user.id });
      expect(current.note).toMatchObject({ title: "Mine", content: mine, contentText: "my words\ncoloured", tags: [{ id: tag.id }] });
      const [latest] = await history(db, note.id, user.id);
      expect(latest).toMatchObject({ version: 3, author: { kind: "browser" } });

      const stranger = await createUser(db, { email: `${randomUUID()}@example.com` });
      expect(await appErrorOf(getRevisionOrThrow(db, { noteId: note.id, revisionId: original!.id, userId: stranger.id }))).toEqual({ status: 404, error: "Note not found" });
      expect(await appErrorOf(getRevisionOrThrow(db, { noteId: note.id, revisionId: randomUUID(), userId: user.id }))).toEqual({ status: 404, error: "Revision not found" });
    });
  });

  it("records a change of tags alone, and leaves the revision before it with the tags it had", async () => {
    await database.withDb(async (db) => {
      const { user, api } = await setUp(db);
      const first = await createTag(db, { userId: user.id, input: { name: `a-${randomUUID()}` } });
      const second = await createTag(db, { userId: user.id, input: { name: `b-${randomUUID()}` } });
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Tagged", content: [paragraph("t", "text")], tagIds: [first.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { tagIds: [second.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { pinned: true } });
      const revisions = await history(db, note.id, user.id);
      expect(revisions.map((revision) => [revision.version, revision.tags.map((tag) => tag.id)])).toEqual([
        [3, [second.id]],
        [1, [first.id]],
      ]);
    });
  });

  it("history goes to the trash and back with its note, and leaves with it for good", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Kept", content: [paragraph("k", "v1")] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [paragraph("k", "v2")] } });
      const before = await history(db, note.id, user.id);

      await deleteNote(db, { id: note.id, userId: user.id });
      expect(await appErrorOf(listRevisions(db, { noteId: note.id, userId: user.id, limit: 10 }))).toEqual({ status: 404, error: "Note not found" });
      await restoreTrashedNote(db, { id: note.id, userId: user.id });
      expect(await history(db, note.id, user.id)).toEqual(before);

      await deleteNote(db, { id: note.id, userId: user.id });
      await deleteTrashedNote(db, { id: note.id, userId: user.id });
      expect(await db.noteRevision.count({ where: { noteId: note.id } })).toBe(0);

      const expiring = await createNote(db, { userId: user.id, author: person, input: { title: "Expiring" } });
      await deleteNote(db, { id: expiring.note.id, userId: user.id });
      expect(await purgeExpiredTrash(db, { userId: user.id, now: new Date(Date.now() + 31 * DAY_MS) })).toBe(1);
      expect(await db.noteRevision.count({ where: { noteId: expiring.note.id } })).toBe(0);

      const untouched = await createNote(db, { userId: user.id, author: person, input: { title: "Untitled", content: [], contentText: "" } });
      expect(await discardEmptyNote(db, { id: untouched.note.id, userId: user.id, ifVersion: 1 })).toBe(true);
      expect(await db.noteRevision.count({ where: { noteId: untouched.note.id } })).toBe(0);
    });
  });
});
