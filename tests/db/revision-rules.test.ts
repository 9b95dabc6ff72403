import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import type { RevisionAuthor } from "@/lib/db/author";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions } from "@/lib/revisions/queries";
import type { TRevisionSummary } from "@/lib/revisions/schemas";
import { createTag } from "@/lib/tags/mutations";
import { createUser } from "@/lib/users/mutations";
import { TEST_DB_KINDS } from "@/tests/helpers/env";
import { paragraphWithId } from "@/tests/helpers/rich-notes";
import { useTestDatabase } from "@/tests/helpers/test-db";

// The recording rule of note_revision_record (the revision policy,
// prisma/definitions/note_revisions.sql), checked over random sequences of writes by every kind of author
// and restores of random earlier revisions, the person's saves coming from two
// editor sessions (two visits to the note). Time is the revisions' clock:
// waiting `d` is moving the note's revision timestamps `d` into the past, which
// is all the trigger's pause and folding window compare with now().

const SECOND = 1000;
/** A failure prints its seed and path; FC_SEED=<seed> FC_PATH=<path> replays it, FC_RUNS=<n> runs more. */
const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {};
/** Who writes: an agent through REST or MCP, or the person in one of two editor sessions. */
const KINDS = ["api", "mcp", "browser", "browser-again"] as const;
type Kind = (typeof KINDS)[number];
const isPerson = (kind: Kind) => kind === "browser" || kind === "browser-again";

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

type Clock = { pauseMs: number; windowMs: number };
/** No wait, a short one, just under and just over the pause: several short ones add up to the window. */
const waitArb = ({ pauseMs }: Clock) => fc.constantFrom(0, pauseMs / 4, pauseMs - 20 * SECOND, pauseMs + 20 * SECOND);
const opArb = (clock: Clock): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record(
      {
        type: fc.constant("write" as const),
        kind: fc.constantFrom(...KINDS),
        waitMs: waitArb(clock),
        title: fc.constantFrom("Plan", "Plan B", "Notes"),
        text: fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.constantFrom("", "x", "word ", "🦊", "é\n", "\n") }),
        blocks: fc.array(fc.constantFrom("one", "two", "three", "🦊 four"), { maxLength: 4 }),
        pinned: fc.boolean(),
        tags: fc.subarray([0, 1]),
      },
      { requiredKeys: ["type", "kind", "waitMs"] },
    ) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant("restore" as const), kind: fc.constantFrom(...KINDS), waitMs: waitArb(clock), pick: fc.nat() }) },
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

  it("keeps every state that stood for the pause or preceded another writer's write or a restore, exactly, folds only one session's saves, and every restore undoable", async () => {
    await database.withDb(async (db) => {
      const user = await createUser(db, { email: `${randomUUID()}@example.com` });
      const authors: Record<Kind, RevisionAuthor> = {
        api: { kind: "api", email: user.email, agent: "bot" },
        mcp: { kind: "mcp", email: user.email },
        browser: { kind: "browser", email: user.email, session: randomUUID() },
        "browser-again": { kind: "browser", email: user.email, session: randomUUID() },
      };
      const tagIds = [
        (await createTag(db, { userId: user.id, input: { name: `a-${randomUUID()}` } })).id,
        (await createTag(db, { userId: user.id, input: { name: `b-${randomUUID()}` } })).id,
      ];
      const [clock] = await db.$queryRaw<Clock[]>`SELECT (extract(epoch FROM note_revision_pause()) * 1000)::int AS "pauseMs",
        (extract(epoch FROM note_revision_fold_window()) * 1000)::int AS "windowMs"`;
      expect(clock).toEqual({ pauseMs: 2 * 60 * SECOND, windowMs: 5 * 60 * SECOND });

      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...KINDS), fc.array(opArb(clock!), { minLength: 1, maxLength: 10 }), async (creator, ops) => {
          await checkSequence(db, { userId: user.id, authors, tagIds, clock: clock!, creator, ops });
        }),
        // PGlite runs in this process, a step at a time: fewer runs keep it within seconds.
        { numRuns: Number(process.env.FC_RUNS ?? (kind === "pglite" ? 25 : 40)), ...replay },
      );
    });
  }, 120_000);
});

type Step = { state: State; version: number; author: Kind; restore: boolean; at: number };

async function checkSequence(
  db: Db,
  { userId, authors, tagIds, clock, creator, ops }: { userId: string; authors: Record<Kind, RevisionAuthor>; tagIds: string[]; clock: Clock; creator: Kind; ops: Op[] },
): Promise<void> {
  const first: State = { title: "Start", content: [paragraphWithId("p0", "start")], contentText: "start 🦊 text", pinned: false, tagIds: [] };
  const created = await createNote(db, {
    userId,
    author: authors[creator],
    input: { title: first.title, content: first.content, contentText: first.contentText },
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
  // The rule, step by step: which writes begin a revision and which join the newest.
  expect(revisions.map((revision) => revision.version).reverse(), "the versions that begin or end a revision").toEqual(expectedVersions(steps, clock));
  // Every state a reader could rely on is in the history.
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    const kept =
      next === undefined || next.at - step.at >= clock.pauseMs || step.restore || next.restore || next.author !== step.author || !isPerson(step.author);
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

/**
 * The version of each revision the history should hold after these steps,
 * oldest first, by the rule of note_revision_record: a person's save joins
 * the newest revision when that is a save of the same session, not a
 * restore, written less than the pause ago and begun less than the window
 * ago; a write that changes nothing makes no version (lib/notes/mutations.ts),
 * unless it is a restore, which is a revision of its own.
 */
function expectedVersions(steps: Step[], { pauseMs, windowMs }: Clock): number[] {
  type Model = { version: number; author: Kind; restore: boolean; begunAt: number; lastAt: number };
  const model: Model[] = [];
  steps.forEach((step, i) => {
    const latest = model.at(-1);
    const record = () => model.push({ version: step.version, author: step.author, restore: step.restore, begunAt: step.at, lastAt: step.at });
    if (!latest) return record();
    const unchanged = sameState(steps[i - 1]!.state, step.state);
    if (unchanged && !step.restore) return;
    const sameWriter = latest.author === step.author;
    const open = isPerson(latest.author) && !latest.restore && step.at - latest.lastAt < pauseMs && step.at - latest.begunAt < windowMs;
    const joins = !step.restore && open && sameWriter;
    if (!joins) return record();
    latest.version = step.version;
    latest.lastAt = step.at;
  });
  return model.map((revision) => revision.version);
}
