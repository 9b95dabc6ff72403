import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import type { RevisionAuthor } from "@/lib/db/author";
import { restoreRevision } from "@/lib/revisions/mutations";
import { describeRevisionChange } from "@/lib/revisions/diff";
import { notesLastChangedByAgent } from "@/lib/notes/rows";
import { getRevisionOrThrow, listRevisionChanges, listRevisions } from "@/lib/revisions/queries";
import { createTag } from "@/lib/tags/mutations";
import { purgeExpiredTrash } from "@/lib/notes/trash-move";
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
    const person: RevisionAuthor = { kind: "browser", email: user.email, session: randomUUID() };
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

  it("begins a new version of a person's saves after a 2-minute pause, and in a new editor session", async () => {
    await database.withDb(async (db) => {
      const { user, person } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Draft", content: [paragraph("p", "a")] } });
      const save = (text: string, author: RevisionAuthor = person) => updateNote(db, { id: note.id, userId: user.id, author, input: { content: [paragraph("p", text)] } });
      const ago = (seconds: number) => db.$executeRaw`UPDATE note_revisions SET created_at = created_at - ${seconds} * interval '1 second',
        updated_at = updated_at - ${seconds} * interval '1 second' WHERE note_id = ${note.id}::uuid`;
      const versions = async () => (await history(db, note.id, user.id)).map((revision) => revision.version);

      await ago(100);
      await save("ab");
      expect(await versions()).toEqual([2]);
      // A pause of more than 2 minutes since the last save: the note as it stood is kept.
      await ago(130);
      await save("abc");
      expect(await versions()).toEqual([3, 2]);
      // Saves less than 2 minutes apart join, up to 5 minutes after the first.
      for (const text of ["abcd", "abcde"]) {
        await ago(100);
        await save(text);
      }
      expect(await versions()).toEqual([5, 2]);
      await ago(100);
      await save("abcdef");
      expect(await versions()).toEqual([6, 5, 2]);
      // The person leaves the note and comes back: a new session, a new version at once.
      await save("abcdefg", { ...person, session: randomUUID() });
      expect(await versions()).toEqual([7, 6, 5, 2]);
      // A save that names no session (a tag deleted from the notes page) never joins one, nor is joined.
      await updateNote(db, { id: note.id, userId: user.id, author: { kind: "browser", email: user.email }, input: { title: "Draft, titled" } });
      await save("abcdefgh");
      expect(await versions()).toEqual([9, 8, 7, 6, 5, 2]);
    });
  });

  it("says what each version changed since the one before, page by page, and when a restore's version was written", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const text = [paragraph("a", "Pack the tent.")];
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Camping", content: text } });
      const image = { id: "i", type: "image", props: { url: "/api/attachments/x", name: "lake.png", caption: "" }, children: [] };
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [...text, image] } });
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { title: "Camping trip", content: [paragraph("a", "Pack the tent and maps."), image, paragraph("b", "Leave at six.")] } });
      const [, , oldest] = await history(db, note.id, user.id);
      await restoreRevision(db, { noteId: note.id, revisionId: oldest!.id, userId: user.id, author: person });

      const labels = async (cursor?: number) => {
        const page = await listRevisions(db, { noteId: note.id, userId: user.id, limit: 2, cursor });
        const changes = await listRevisionChanges(db, { noteId: note.id, userId: user.id, revisions: page.revisions });
        return {
          page,
          labels: page.revisions.map((revision) => {
            const info = changes[revision.id]!;
            return describeRevisionChange(info.change, info.restoredFrom && { at: `${info.restoredFrom.version} at ${info.restoredFrom.at}`, authorKind: info.restoredFrom.authorKind });
          }),
        };
      };
      const first = await labels();
      expect(first.labels).toEqual([`Restored the agent's version from 1 at ${oldest!.updatedAt}`, "Title changed · 2 lines added, 1 removed"]);
      const second = await labels(Number(first.page.nextCursor));
      expect(second.labels).toEqual(["Image added", "Created · 1 line added"]);
    });
  });

  it("restores a revision exactly, as a new revision by whoever restores, honouring If-Match", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const tag = await createTag(db, { userId: user.id, input: { name: `t-${randomUUID()}` } });
      const mine = [paragraph("x1", "my words"), { ...paragraph("x2", "coloured"), props: { textColor: "red", backgroundColor: "default", textAlignment: "center" } }];
      const { note } = await createNote(db, { userId: user.id, author: person, input: { title: "Mine", content: mine, contentText: "my words\ncoloured", tagIds: [tag.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { title: "Overwritten", content: [paragraph("z", "agent text")], tagIds: [] } });
      const [, original] = await history(db, note.id, user.id);

      expect(await appErrorOf(restoreRevision(db, { noteId: note.id, revisionId: original!.id, userId: user.id, author: person, ifVersion: 1 }))).toMatchObject({ status: 412 });
      const restored = await restoreRevision(db, { noteId: note.id, revisionId: original!.id, userId: user.id, author: person, ifVersion: 2 });
      expect(restored.version).toBe(3);
      const current = await getNoteOrThrow(db, { id: note.id, userId: user.id });
      expect(current.note).toMatchObject({ title: "Mine", content: mine, contentText: "my words\ncoloured", tags: [{ id: tag.id }] });
      const [latest] = await history(db, note.id, user.id);
      expect(latest).toMatchObject({ version: 3, author: { kind: "browser" }, restoredFrom: 1 });

      const stranger = await createUser(db, { email: `${randomUUID()}@example.com` });
      expect(await appErrorOf(getRevisionOrThrow(db, { noteId: note.id, revisionId: original!.id, userId: stranger.id }))).toEqual({ status: 404, error: "Note not found" });
      expect(await appErrorOf(getRevisionOrThrow(db, { noteId: note.id, revisionId: randomUUID(), userId: user.id }))).toEqual({ status: 404, error: "Revision not found" });
    });
  });

  it("records a change of tags alone, or of the pin alone, and leaves the revision before it as it was", async () => {
    await database.withDb(async (db) => {
      const { user, api } = await setUp(db);
      const first = await createTag(db, { userId: user.id, input: { name: `a-${randomUUID()}` } });
      const second = await createTag(db, { userId: user.id, input: { name: `b-${randomUUID()}` } });
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Tagged", content: [paragraph("t", "text")], tagIds: [first.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { tagIds: [second.id] } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { pinned: true } });
      const revisions = await history(db, note.id, user.id);
      expect(revisions.map((revision) => [revision.version, revision.tags.map((tag) => tag.id), revision.pinned])).toEqual([
        [3, [second.id], true],
        [2, [second.id], false],
        [1, [first.id], false],
      ]);
    });
  });

  it("a person's restore is a revision of its own: the save before it stays, and restoring that save undoes it", async () => {
    await database.withDb(async (db) => {
      const { user, person, api } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Shared", content: [paragraph("a", "agent one")], contentText: "agent one" } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { content: [paragraph("a", "agent two")], contentText: "agent two" } });
      const typed = [paragraph("a", "agent two"), paragraph("b", "typed word")];
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { content: typed, contentText: "agent two\ntyped word" } });
      const oldest = (await history(db, note.id, user.id)).at(-1)!;

      // Within the folding window of the person's save, in the browser.
      await restoreRevision(db, { noteId: note.id, revisionId: oldest.id, userId: user.id, author: person, ifVersion: 3 });
      const afterRestore = await history(db, note.id, user.id);
      expect(afterRestore.map((revision) => [revision.version, revision.author.kind, revision.restoredFrom])).toEqual([
        [4, "browser", 1],
        [3, "browser", undefined],
        [2, "api", undefined],
        [1, "api", undefined],
      ]);
      // The person's next save is not folded into the restore either.
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { title: "Shared, restored" } });
      expect((await history(db, note.id, user.id)).map((revision) => revision.version)).toEqual([5, 4, 3, 2, 1]);

      await restoreRevision(db, { noteId: note.id, revisionId: afterRestore[1]!.id, userId: user.id, author: person, ifVersion: 5 });
      const { note: undone } = await getNoteOrThrow(db, { id: note.id, userId: user.id });
      expect(undone).toMatchObject({ title: "Shared", content: typed, contentText: "agent two\ntyped word" });
    });
  });

  it("a revision is the note as it was: text, title, tags and pin as stored, whichever the write changed", async () => {
    await database.withDb(async (db) => {
      const { user, api, mcp, person } = await setUp(db);
      const blocks = [paragraph("x", "block words X")];
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Both", content: blocks, contentText: "block words X" } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { contentText: "agent text Y" } });
      await updateNote(db, { id: note.id, userId: user.id, author: mcp, input: { pinned: true } });
      await updateNote(db, { id: note.id, userId: user.id, author: person, input: { content: [paragraph("x", "typed Z")], contentText: "typed Z" } });
      const states = await Promise.all(
        (await history(db, note.id, user.id)).map(async (summary) => {
          const { revision } = await getRevisionOrThrow(db, { noteId: note.id, revisionId: summary.id, userId: user.id });
          return [revision.version, revision.contentText, revision.content, revision.pinned];
        }),
      );
      expect(states).toEqual([
        [4, "typed Z", [paragraph("x", "typed Z")], true],
        [3, "agent text Y", blocks, true],
        [2, "agent text Y", blocks, false],
        [1, "block words X", blocks, false],
      ]);
    });
  });

  it("stores a one-word edit of a 100 KB plain-text note as the change, and reads every version back exactly", async () => {
    await database.withDb(async (db) => {
      const { user, api, person } = await setUp(db);
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}: the quick brown fox jumps over the dog 🦊 é`);
      const oneLine = lines.join(" ");
      for (const [text, content] of [
        [lines.join("\n"), null],
        [oneLine, []],
      ] as const) {
        expect(text.length).toBeGreaterThan(100_000);
        const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Plain", content, contentText: text } });
        const expected = new Map<number, string>([[1, text]]);
        let current = text;
        for (const [at, word, author] of [
          [50_000, "wolf", api],
          [10, "🐺", api],
          [current.length - 3, "end", person],
          [60_000, "", api],
        ] as const) {
          const start = current.indexOf(" ", at) + 1;
          current = current.slice(0, start) + word + current.slice(current.indexOf(" ", start));
          const saved = await updateNote(db, { id: note.id, userId: user.id, author, input: { contentText: current } });
          expected.set(saved.version, current);
        }
        const rows = await db.$queryRaw<{ version: number; keyframe: boolean; bytes: number }[]>`
          SELECT version, keyframe, pg_column_size(r.*)::int AS bytes FROM note_revisions r WHERE note_id = ${note.id}::uuid ORDER BY version`;
        expect(rows.filter((row) => row.keyframe).map((row) => row.version)).toEqual([1]);
        for (const row of rows.filter((row) => !row.keyframe)) expect(row.bytes, `version ${row.version}`).toBeLessThan(1024);
        for (const summary of await history(db, note.id, user.id)) {
          const { revision } = await getRevisionOrThrow(db, { noteId: note.id, revisionId: summary.id, userId: user.id });
          expect(revision.contentText === expected.get(revision.version), `version ${revision.version}`).toBe(true);
          // A note created without blocks has an empty list of them.
          expect(revision.content).toEqual(content ?? []);
        }
      }
    });
  });

  it("a person's saves folded into one revision keep the text as the last of them left it", async () => {
    await database.withDb(async (db) => {
      const { user, api, person } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Fold", contentText: "alpha beta gamma delta" } });
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { contentText: "alpha beta gamma delta!" } });
      for (const text of ["alpha BETA gamma delta!", "alpha BETA gamma DELTA!", "ALPHA BETA gamma DELTA!", "ALPHA BETA gamma DELTA!"]) {
        await updateNote(db, { id: note.id, userId: user.id, author: person, input: { contentText: text } });
      }
      const revisions = await history(db, note.id, user.id);
      // The last save changed nothing: it made no version.
      expect(revisions.map((revision) => [revision.version, revision.author.kind])).toEqual([
        [5, "browser"],
        [2, "api"],
        [1, "api"],
      ]);
      const texts = [];
      for (const summary of revisions) texts.push((await getRevisionOrThrow(db, { noteId: note.id, revisionId: summary.id, userId: user.id })).revision.contentText);
      expect(texts).toEqual(["ALPHA BETA gamma DELTA!", "alpha beta gamma delta!", "alpha beta gamma delta"]);
    });
  });

  it("reads revisions recorded before text was kept beside blocks, and starts the text anew after them", async () => {
    await database.withDb(async (db) => {
      const { user, api } = await setUp(db);
      const { note } = await createNote(db, { userId: user.id, author: api, input: { title: "Old", content: [paragraph("o", "old words")], contentText: "stale text" } });
      // As the earlier trigger wrote it: no text beside blocks, no text change, no pin.
      await db.$executeRaw`UPDATE note_revisions SET content_text = NULL, text_keep_head = NULL, text_keep_tail = NULL, pinned = NULL WHERE note_id = ${note.id}::uuid`;
      await updateNote(db, { id: note.id, userId: user.id, author: api, input: { contentText: "stale text, edited" } });
      const [newer, older] = await history(db, note.id, user.id);
      expect(older!.pinned).toBeNull();
      expect((await getRevisionOrThrow(db, { noteId: note.id, revisionId: older!.id, userId: user.id })).revision.contentText).toBe("old words");
      expect((await getRevisionOrThrow(db, { noteId: note.id, revisionId: newer!.id, userId: user.id })).revision.contentText).toBe("stale text, edited");
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

    });
  });
});
