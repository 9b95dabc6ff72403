import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import type { RevisionAuthor } from "@/lib/revisions/author";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions } from "@/lib/revisions/queries";
import type { TRevisionSummary } from "@/lib/revisions/schemas";
import { createTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { useTestDatabase } from "@/tests/helpers/test-db";

// The recording rule of note_revision_record (revisions_keep_every_version
// migration), checked over random sequences of writes by every kind of author
// and restores of random earlier revisions. Time is the revisions' clock:
// waiting `d` is moving the note's revision timestamps `d` into the past, which
// is all the trigger's folding window compares with now().

const MINUTE = 60_000;
const KINDS = ["api", "mcp", "browser"] as const;
type Kind = (typeof KINDS)[number];

type State = { title: string; content: unknown; contentText: string; pinned: boolean; tagIds: string[] };

type TextEdit = { at: number; remove: number; insert: string };
type Write = {
  type: "write";
  kind: Kind;
  waitMs: number;
  title?: string;
  text?: TextEdit;
  blocks?: string[];
  pinned?: boolean;
  tags?: number[];
};
type Restore = { type: "restore"; kind: Kind; waitMs: number; pick: number };
type Op = Write | Restore;

const waitArb = (windowMs: number) => fc.constantFrom(0, MINUTE, windowMs - MINUTE, windowMs + MINUTE);
const opArb = (windowMs: number): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record(
      {
        type: fc.constant("write" as const),
        kind: fc.constantFrom(...KINDS),
        waitMs: waitArb(windowMs),
        title: fc.constantFrom("Plan", "Plan B", "Notes"),
        text: fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.constantFrom("", "x", "word ", "🦊", "é\n", "\n") }),
        blocks: fc.array(fc.constantFrom("one", "two", "three", "🦊 four"), { maxLength: 4 }),
        pinned: fc.boolean(),
        tags: fc.subarray([0, 1]),
      },
      { requiredKeys: ["type", "kind", "waitMs"] },
    ) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant("restore" as const), kind: fc.constantFrom(...KINDS), waitMs: waitArb(windowMs), pick: fc.nat() }) },
  );

/** The text with `remove` characters (code points, never half of one) at `at` replaced by `insert`. */
function editText(text: string, { at, remove, insert }: TextEdit): string {
  const chars = Array.from(text);
  const start = chars.length === 0 ? 0 : at % (chars.length + 1);
  chars.splice(start, remove, insert);
  return chars.join("");
}

/** JSON with object keys sorted: jsonb keeps its own key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );

const sameState = (a: State, b: State) =>
  a.title === b.title &&
  a.contentText === b.contentText &&
  a.pinned === b.pinned &&
  JSON.stringify([...a.tagIds].sort()) === JSON.stringify([...b.tagIds].sort()) &&
  canonical(a.content) === canonical(b.content);

describe.each(TEST_DB_KINDS)("the recording rule of note history, over random sequences of writes (%s)", (kind) => {
  const database = useTestDatabase(kind);

  it("keeps every state that stood longer than the folding window or preceded another author's write or a restore, exactly, and every restore undoable", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const authors: Record<Kind, RevisionAuthor> = {
        api: { kind: "api", email: user.email, agent: "bot" },
        mcp: { kind: "mcp", email: user.email },
        browser: { kind: "browser", email: user.email },
      };
      const tagIds = [
        (await createTag(db, { userId: user.id, input: { name: `a-${randomUUID()}` } })).id,
        (await createTag(db, { userId: user.id, input: { name: `b-${randomUUID()}` } })).id,
      ];
      const [window] = await db.$queryRaw<{ ms: number }[]>`SELECT (extract(epoch FROM note_revision_fold_window()) * 1000)::int AS ms`;
      const windowMs = window!.ms;

      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...KINDS), fc.array(opArb(windowMs), { minLength: 1, maxLength: 10 }), async (creator, ops) => {
          await checkSequence(db, { userId: user.id, authors, tagIds, windowMs, creator, ops });
        }),
        // PGlite runs in this process, a step at a time: fewer runs keep it within seconds.
        { numRuns: kind === "pglite" ? 25 : 40 },
      );
    });
  }, 120_000);
});

type Step = { state: State; version: number; author: Kind; restore: boolean; at: number };

async function checkSequence(
  db: Db,
  { userId, authors, tagIds, windowMs, creator, ops }: { userId: string; authors: Record<Kind, RevisionAuthor>; tagIds: string[]; windowMs: number; creator: Kind; ops: Op[] },
): Promise<void> {
  const first: State = { title: "Start", content: [paragraphWithId("p0", "start")], contentText: "start 🦊 text", pinned: false, tagIds: [] };
  const created = await createNote(db, {
    userId,
    author: authors[creator],
    input: { title: first.title, content: first.content, contentText: first.contentText, derivedMarkdown: null },
  });
  const noteId = created.note.id;
  const steps: Step[] = [{ state: first, version: created.version, author: creator, restore: false, at: 0 }];
  const history = async () => (await listRevisions(db, { noteId, userId, limit: 100 })).revisions;
  const stateOf = async (summary: TRevisionSummary): Promise<State> => {
    const { revision, tagIds: ids } = await getRevisionOrThrow(db, { noteId, revisionId: summary.id, userId });
    return { title: revision.title, content: revision.content, contentText: revision.contentText, pinned: revision.pinned!, tagIds: ids };
  };

  for (const op of ops) {
    const before = steps.at(-1)!;
    if (op.waitMs > 0) {
      await db.$executeRaw`UPDATE note_revisions SET created_at = created_at - ${op.waitMs} * interval '1 millisecond',
        updated_at = updated_at - ${op.waitMs} * interval '1 millisecond' WHERE note_id = ${noteId}::uuid`;
    }
    if (op.type === "restore") {
      const revisions = await history();
      const target = revisions[op.pick % revisions.length]!;
      const state = await stateOf(target);
      const restored = await restoreRevision(db, { noteId, revisionId: target.id, userId, author: authors[op.kind], ifVersion: before.version });
      steps.push({ state, version: restored.version, author: op.kind, restore: true, at: before.at + op.waitMs });
      continue;
    }
    const state: State = {
      title: op.title ?? before.state.title,
      content: op.blocks ? op.blocks.map((text, i) => paragraphWithId(`p${i}`, text)) : before.state.content,
      contentText: op.text ? editText(before.state.contentText, op.text) : before.state.contentText,
      pinned: op.pinned ?? before.state.pinned,
      tagIds: op.tags ? op.tags.map((i) => tagIds[i]!) : before.state.tagIds,
    };
    const saved = await updateNote(db, {
      id: noteId,
      userId,
      author: authors[op.kind],
      ifVersion: before.version,
      input: {
        title: state.title,
        ...(op.blocks ? { content: state.content, derivedMarkdown: null } : {}),
        contentText: state.contentText,
        pinned: state.pinned,
        tagIds: state.tagIds,
      },
    });
    steps.push({ state, version: saved.version, author: op.kind, restore: false, at: before.at + op.waitMs });
  }

  const revisions = await history();
  const states = await Promise.all(revisions.map(stateOf));
  // Every revision is exactly the note as it was at its version.
  revisions.forEach((revision, i) => {
    const step = steps.findLast((candidate) => candidate.version <= revision.version)!;
    expect(sameState(states[i]!, step.state), `revision v${revision.version} is the note at v${step.version}`).toBe(true);
  });
  // Every state a reader could rely on is in the history.
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    const kept =
      next === undefined || next.at - step.at > windowMs || step.restore || next.restore || next.author !== step.author || step.author !== "browser";
    if (kept) expect(states.some((state) => sameState(state, step.state)), `the state after write ${i} (v${step.version}) is in the history`).toBe(true);
  });
  // Every restore is a revision of its own, and the one before it is the state it replaced.
  let lastUndo: { predecessor: TRevisionSummary; expected: State } | undefined;
  steps.forEach((step, i) => {
    if (!step.restore) return;
    const at = revisions.findLastIndex((revision) => revision.version >= step.version);
    expect(revisions[at]!.restoredFrom, `the restore at v${step.version} is recorded as one`).toBeDefined();
    const predecessor = revisions[at + 1]!;
    expect(sameState(states[at + 1]!, steps[i - 1]!.state), `the revision before the restore at v${step.version} is the state it replaced`).toBe(true);
    lastUndo = { predecessor, expected: steps[i - 1]!.state };
  });
  if (lastUndo) {
    await restoreRevision(db, { noteId, revisionId: lastUndo.predecessor.id, userId, author: authors.browser });
    const { note } = await getNoteOrThrow(db, { id: noteId, userId });
    const now: State = { title: note.title, content: note.content, contentText: note.contentText, pinned: note.pinned, tagIds: note.tags.map((tag) => tag.id) };
    expect(sameState(now, lastUndo.expected), "restoring the revision before a restore undoes it").toBe(true);
  }
}
