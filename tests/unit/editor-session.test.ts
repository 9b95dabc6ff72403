import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NOTE_FIELDS,
  createEditorSessionStore,
  editorSessionReducer,
  hasUnsaved,
  initialEditorSession,
  type EditorSession,
  type EditorSessionEvent,
  type Fields,
  type NoteField,
} from "@/lib/notes/editor-session";
import type { EditorNote } from "@/lib/notes/editor-types";
import { INITIAL_SETTINGS } from "@/lib/notes/settings";

const note = (version: number, over: Partial<EditorNote> = {}): EditorNote =>
  ({
    id: "n",
    title: "Mine",
    content: [],
    contentText: "",
    tags: [],
    ...INITIAL_SETTINGS,
    version,
    createdAt: "2026-11-26T10:00:00.000Z",
    updatedAt: `2026-11-26T10:00:0${version % 10}.000Z`,
    ...over,
  }) as EditorNote;
const fields = (...names: NoteField[]): Fields => Object.fromEntries(NOTE_FIELDS.map((field) => [field, names.includes(field)])) as Fields;
const start = initialEditorSession(note(1));
const run = (events: EditorSessionEvent[], from: EditorSession = start) => events.reduce(editorSessionReducer, from);
const typed = (field: NoteField = "content"): EditorSessionEvent => ({ type: "changed", field });
const sending = (...names: NoteField[]) => run([...names.map((name) => typed(name)), { type: "save_started" }]);

describe("the editor session", () => {
  it("starts saved at the page's version, with the note as the base to merge against", () => {
    expect(start).toMatchObject({ version: 1, status: "saved", dirty: fields(), sending: null, hold: null, conflict: null, failure: null, again: null });
    expect(start.base).toEqual({ title: "Mine", content: [], tags: [], pinned: false });
    expect(hasUnsaved(start)).toBe(false);
  });

  describe("changed", () => {
    it("marks the field pending and shows saving", () => {
      const next = run([typed("title")]);
      expect(next).toMatchObject({ dirty: fields("title"), status: "saving" });
      expect(hasUnsaved(next)).toBe(true);
    });

    it("is the same state when the field is already pending (typing renders nothing more)", () => {
      const once = run([typed()]);
      expect(editorSessionReducer(once, typed())).toBe(once);
    });

    it("keeps offline and error showing until a save says otherwise", () => {
      const offline = run([{ type: "save_offline" }], sending("content"));
      expect(run([typed("title")], offline)).toMatchObject({ status: "offline", dirty: fields("content", "title") });
      const failed = run([{ type: "save_failed", error: "server", message: "down" }], sending("content"));
      expect(run([typed("title")], failed).status).toBe("error");
    });

    it("lifts a refusal (the changed note may be accepted) but not a conflict or being signed out", () => {
      const refused = run([typed(), { type: "save_refused", message: "too large" }]);
      expect(run([typed()], refused)).toMatchObject({ hold: null, status: "error" });
      const conflict = run([{ type: "conflict_shown", current: note(2) }, typed()]);
      expect(conflict).toMatchObject({ hold: "conflict", status: "conflict", dirty: fields("content") });
      const signedOut = run([{ type: "save_failed", error: "signed_out", message: "sign in" }, typed("title")], sending("content"));
      expect(signedOut).toMatchObject({ hold: "signed_out", status: "error", dirty: fields("content", "title") });
    });
  });

  describe("save_started", () => {
    it("sends every pending field at once", () => {
      expect(sending("title", "tags")).toMatchObject({ sending: fields("title", "tags"), dirty: fields(), status: "saving" });
    });

    it("does nothing when nothing is pending, saving waits, or a save is on its way", () => {
      expect(run([{ type: "save_started" }])).toBe(start);
      const held = run([typed(), { type: "conflict_shown", current: note(2) }]);
      expect(run([{ type: "save_started" }], held)).toBe(held);
      const onItsWay = run([typed("title")], sending("content"));
      expect(run([{ type: "save_started" }], onItsWay)).toBe(onItsWay);
    });
  });

  it("save_refused keeps the changes and waits for a change or the person, the reason kept with the draft", () => {
    const refused = run([typed(), { type: "save_refused", message: "too large" }]);
    expect(refused).toMatchObject({ hold: "refused", status: "error", dirty: fields("content"), reason: "too large", again: null });
    expect(refused.failure).toEqual({ kind: "refused", message: "too large", retrying: false });
  });

  describe("save_succeeded", () => {
    it("moves to the new version, with what it wrote on the base, and is saved", () => {
      const saved = run([{ type: "save_succeeded", version: 2, updatedAt: "t2", wrote: { title: "New" } }], sending("title"));
      expect(saved).toMatchObject({ version: 2, updatedAt: "t2", status: "saved", sending: null, dirty: fields(), again: null });
      expect(saved.base).toEqual({ title: "New", content: [], tags: [], pinned: false });
    });

    it("saves at once what was typed while it was on its way", () => {
      const saved = run([typed("title"), { type: "save_succeeded", version: 2, updatedAt: "t2", wrote: { content: [] } }], sending("content"));
      expect(saved).toMatchObject({ status: "saving", dirty: fields("title"), again: 0 });
    });

    it("clears a failure and the counts of tries", () => {
      const failed = run([{ type: "save_failed", error: "server", message: "down" }, { type: "save_started" }], sending("content"));
      const offline = run([{ type: "save_offline" }, { type: "save_started" }], failed);
      const saved = run([{ type: "save_succeeded", version: 2, updatedAt: "t2", wrote: {} }], offline);
      expect(saved).toMatchObject({ failure: null, reason: undefined, retryMs: 0, serverFailures: 0 });
    });

    it("keeps an unknown base unknown", () => {
      const restored = run([{ type: "opened", draft: { noteId: "n", baseVersion: 0, title: "x", savedAt: "t" } }, { type: "retried" }, { type: "save_started" }]);
      expect(run([{ type: "save_succeeded", version: 2, updatedAt: "t2", wrote: { title: "x" } }], restored).base).toBeNull();
    });

    it("is ignored with no save on its way", () => {
      expect(run([{ type: "save_succeeded", version: 9, updatedAt: "t9", wrote: {} }])).toBe(start);
    });
  });

  describe("save_offline", () => {
    it("puts the sent fields back and tries again after 1 s, doubling up to 30 s", () => {
      let state = sending("content");
      const waits: number[] = [];
      for (let attempt = 0; attempt < 7; attempt += 1) {
        state = run([{ type: "save_offline" }], state);
        expect(state).toMatchObject({ status: "offline", dirty: fields("content"), sending: null, failure: null });
        waits.push(state.again!);
        state = run([{ type: "save_started" }], state);
      }
      expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    });

    it("is ignored with no save on its way", () => {
      expect(run([{ type: "save_offline" }])).toBe(start);
    });
  });

  describe("save_conflicted", () => {
    it("unmerged: keeps the changes and waits for the person with the newer note", () => {
      const current = note(3, { title: "Theirs" });
      const state = run([{ type: "save_conflicted", current, merged: false }], sending("title"));
      expect(state).toMatchObject({ hold: "conflict", status: "conflict", conflict: current, dirty: fields("title"), sending: null, again: null, version: 1 });
    });

    it("merged: saves again at once, on the version it was rebased on", () => {
      const current = note(3);
      const state = run([{ type: "merged", current, conflicts: [] }, { type: "save_conflicted", current, merged: true }], sending("title"));
      expect(state).toMatchObject({ hold: null, conflict: null, dirty: fields("title"), version: 3, again: 0 });
    });

    it("is ignored with no save on its way", () => {
      expect(run([{ type: "save_conflicted", current: note(2), merged: false }])).toBe(start);
    });
  });

  describe("save_failed", () => {
    it("server: tries again after 2 s, then 6 s, then waits for the person", () => {
      const first = run([{ type: "save_failed", error: "server", message: "down" }], sending("content"));
      expect(first).toMatchObject({ hold: null, status: "error", again: 2000, serverFailures: 1, dirty: fields("content") });
      expect(first.failure).toEqual({ kind: "server", message: "down", retrying: true });
      const second = run([{ type: "save_started" }, { type: "save_failed", error: "server", message: "down" }], first);
      expect(second).toMatchObject({ hold: null, again: 6000, serverFailures: 2 });
      const third = run([{ type: "save_started" }, { type: "save_failed", error: "server", message: "down" }], second);
      expect(third).toMatchObject({ hold: "refused", again: null, serverFailures: 3, failure: { retrying: false } });
    });

    it("invalid: refused until the note changes", () => {
      const state = run([{ type: "save_failed", error: "invalid", message: "bad" }], sending("tags"));
      expect(state).toMatchObject({ hold: "refused", status: "error", failure: { kind: "refused", message: "bad" }, dirty: fields("tags") });
    });

    it.each(["signed_out", "not_found"] as const)("%s: waits, whatever is typed", (error) => {
      const state = run([{ type: "save_failed", error, message: "m" }], sending("content"));
      expect(state).toMatchObject({ hold: error, failure: { kind: error }, reason: "m" });
      expect(run([typed(), { type: "save_started" }], state).sending).toBeNull();
    });

    it("is ignored with no save on its way", () => {
      expect(run([{ type: "save_failed", error: "server", message: "down" }])).toBe(start);
    });
  });

  describe("merged", () => {
    it("saves become conditional on the merged write, pending changes stay; title and pin are theirs where the person left them", () => {
      const current = note(4, { title: "Theirs", pinned: true });
      const state = run([typed(), { type: "merged", current, conflicts: [] }]);
      expect(state).toMatchObject({ version: 4, updatedAt: current.updatedAt, dirty: fields("content"), status: "saving", choices: [] });
      expect(state.base).toEqual({ title: "Theirs", content: [], tags: [], pinned: true });
      expect(state.values).toEqual({ title: "Theirs", tags: [], pinned: true });
    });

    it("a title both changed stays the person's, theirs offered; tags merge three ways", () => {
      const tag = (id: string) => ({ id, name: id, createdAt: "t" });
      const [a, b, c] = [tag("a"), tag("b"), tag("c")];
      const from = initialEditorSession(note(1, { tags: [a, b] }));
      const mine = run([{ type: "edited", values: { title: "Mine too", tags: [b, c] } }], from);
      const state = run([{ type: "merged", current: note(2, { title: "Theirs", tags: [a, b] }), conflicts: [] }], mine);
      expect(state.values).toMatchObject({ title: "Mine too", tags: [b, c] });
      expect(state.choices).toEqual([{ key: "title", title: { mine: "Mine too", theirs: "Theirs" } }]);
    });
  });

  it("remote_accepted: drops what is unsaved here and any hold, at the note's version now", () => {
    const held = run([{ type: "save_failed", error: "signed_out", message: "m" }, typed("title")], sending("content"));
    const state = run([{ type: "remote_accepted", current: note(5) }], held);
    expect(state).toMatchObject({ version: 5, dirty: fields(), hold: null, conflict: null, failure: null, status: "saved", serverFailures: 0 });
  });

  describe("kept_mine", () => {
    it("saves everything on screen over the newer version", () => {
      const current = note(6);
      const state = run([{ type: "save_conflicted", current, merged: false }, { type: "kept_mine" }], sending("title"));
      expect(state).toMatchObject({ version: 6, hold: null, conflict: null, dirty: fields(...NOTE_FIELDS) });
      expect(run([{ type: "save_started" }], state).sending).toEqual(fields(...NOTE_FIELDS));
    });

    it("does nothing without a conflict", () => {
      expect(run([{ type: "kept_mine" }])).toBe(start);
    });
  });

  it("conflict_shown: waits for the person with the newer note", () => {
    const current = note(2);
    expect(run([typed(), { type: "conflict_shown", current }])).toMatchObject({ hold: "conflict", status: "conflict", conflict: current, dirty: fields("content") });
  });

  describe("opened", () => {
    const draft = { noteId: "n", baseVersion: 1, title: "Mine, later", pinned: true, content: [{ type: "paragraph", content: "typed" }], savedAt: "t", reason: "offline" };

    it("shows the draft's fields unsaved, waiting for the person, on the draft's version; its body is the one the editor opens with", () => {
      const state = run([{ type: "opened", draft }]);
      expect(state).toMatchObject({ opened: true, version: 1, dirty: fields("title", "pinned", "content"), hold: "refused", status: "error", reason: "offline", failure: null });
      expect(state.values).toEqual({ title: "Mine, later", tags: [], pinned: true });
      expect(state.body).toEqual({ in: "page", content: draft.content, contentText: "" });
      expect(state.restored).toEqual({ savedAt: "t", changedSince: false });
      expect(state.base).toEqual(start.base);
    });

    it("counts once: a second mount finds the same draft and changes nothing", () => {
      const once = run([{ type: "opened", draft }]);
      expect(run([{ type: "opened", draft: { ...draft, content: [] } }], once)).toBe(once);
      expect(run([{ type: "opened", draft }], run([{ type: "opened", draft: null }])).restored).toBeNull();
    });

    it("made on an older version: the base is not known", () => {
      expect(run([{ type: "opened", draft: { ...draft, baseVersion: 0 } }])).toMatchObject({ version: 0, base: null, restored: { changedSince: true } });
    });

    it("a draft the note already has (saved after all) restores nothing", () => {
      expect(run([{ type: "opened", draft: { noteId: "n", baseVersion: 1, title: "Mine", savedAt: "t" } }])).toMatchObject({ opened: true, restored: null, dirty: fields() });
    });
  });

  it("draft_kept: says whether the browser stored the changes, the same state when that did not change", () => {
    expect(run([{ type: "draft_kept", kept: false }]).draftKept).toBe(false);
    expect(run([{ type: "draft_kept", kept: true }])).toBe(start);
  });

  it("stopped and resumed: nothing is saved while the note is being deleted", () => {
    const stopped = run([typed(), { type: "stopped" }]);
    expect(stopped).toMatchObject({ hold: "stopped", dirty: fields() });
    expect(run([typed(), { type: "save_started" }], stopped).sending).toBeNull();
    expect(run([{ type: "resumed" }, typed(), { type: "save_started" }], stopped).sending).toEqual(fields("content"));
  });

  describe("retried", () => {
    it("lifts the hold and the failure; saved when nothing is pending", () => {
      const failed = run([{ type: "save_failed", error: "signed_out", message: "m" }], sending("content"));
      const retried = run([{ type: "retried" }], failed);
      expect(retried).toMatchObject({ hold: null, failure: null, serverFailures: 0, status: "error", dirty: fields("content") });
      const accepted = run([{ type: "remote_accepted", current: note(2) }, { type: "save_failed", error: "server", message: "m" }], failed);
      expect(run([{ type: "retried" }], { ...accepted, status: "error" }).status).toBe("saved");
    });
  });

  it("the store applies events at once, tells its subscribers only of changes, and stops telling them once unsubscribed", () => {
    const store = createEditorSessionStore(start);
    let told = 0;
    const unsubscribe = store.subscribe(() => (told += 1));
    expect(store.dispatch(typed()).dirty.content).toBe(true);
    expect(store.get().status).toBe("saving");
    store.dispatch(typed());
    expect(told).toBe(1);
    unsubscribe();
    store.dispatch({ type: "save_started" });
    expect(told).toBe(1);
  });
});

/**
 * A person typing while saves go out and come back in any order the network
 * and other writers allow. Each field's text is a number: the person's latest
 * on screen, and what the server acknowledged. Typed text is never lost: it is
 * in a version the server acknowledged, or still pending in the session. The only exception is
 * the person's own choice to take the note as it is elsewhere.
 */
type World = {
  session: EditorSession;
  screen: Record<NoteField, number>;
  server: Record<NoteField, number>;
  inFlight: Partial<Record<NoteField, number>>;
  /** Every value the person typed (the others were written elsewhere). */
  typed: Set<number>;
  /** Every value a version the server acknowledged held (a later write elsewhere may replace it; the history keeps it). */
  acknowledged: Set<number>;
  next: number;
  version: number;
};
type Step =
  | { kind: "type"; field: NoteField }
  | { kind: "save" }
  | { kind: "answer"; outcome: "ok" | "offline" | "server" | "invalid" | "signed_out" | "not_found" | "too_large" }
  | { kind: "written_elsewhere"; field: NoteField; merged: boolean; during: "save" | "open" }
  | { kind: "keep_mine" }
  | { kind: "reload_theirs" }
  | { kind: "retry" }
  | { kind: "draft_not_kept" };

const fieldArb = fc.constantFrom(...NOTE_FIELDS);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fieldArb.map((field) => ({ kind: "type" as const, field })) },
  { weight: 3, arbitrary: fc.constant({ kind: "save" as const }) },
  { weight: 3, arbitrary: fc.constantFrom("ok", "offline", "server", "invalid", "signed_out", "not_found", "too_large").map((outcome) => ({ kind: "answer" as const, outcome })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("written_elsewhere" as const), field: fieldArb, merged: fc.boolean(), during: fc.constantFrom("save" as const, "open" as const) }) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: "keep_mine" as const }, { kind: "reload_theirs" as const }, { kind: "retry" as const }, { kind: "draft_not_kept" as const }) },
);

const pending = (session: EditorSession, field: NoteField) => session.dirty[field] || (session.sending?.[field] ?? false);

function apply(world: World, step: Step): World {
  const { session } = world;
  const send = (event: EditorSessionEvent) => editorSessionReducer(session, event);
  switch (step.kind) {
    case "type": {
      const value = world.next;
      return {
        ...world,
        next: value + 1,
        typed: new Set([...world.typed, value]),
        screen: { ...world.screen, [step.field]: value },
        session: send({ type: "changed", field: step.field }),
      };
    }
    case "save": {
      const next = send({ type: "save_started" });
      if (!next.sending || session.sending) return { ...world, session: next };
      const inFlight = Object.fromEntries(NOTE_FIELDS.filter((field) => next.sending![field]).map((field) => [field, world.screen[field]]));
      return { ...world, session: next, inFlight };
    }
    case "answer": {
      // Found before sending, by a save that would start: something pending, nothing held, nothing on its way.
      if (step.outcome === "too_large") {
        const wouldStart = !session.hold && !session.sending && NOTE_FIELDS.some((field) => session.dirty[field]);
        return wouldStart ? { ...world, session: send({ type: "save_refused", message: "too large" }) } : world;
      }
      if (!session.sending) return world;
      if (step.outcome === "ok") {
        const version = world.version + 1;
        const next = send({ type: "save_succeeded", version, updatedAt: `t${version}`, wrote: {} });
        const acknowledged = new Set([...world.acknowledged, ...Object.values(world.inFlight)]);
        return { ...world, version, session: next, server: { ...world.server, ...world.inFlight }, acknowledged, inFlight: {} };
      }
      const next = send(step.outcome === "offline" ? { type: "save_offline" } : { type: "save_failed", error: step.outcome, message: step.outcome });
      return { ...world, session: next, inFlight: {} };
    }
    case "written_elsewhere": {
      // Someone else writes the field; the person's text stays where they changed it.
      const version = world.version + 1;
      const value = world.next;
      const server = { ...world.server, [step.field]: value };
      const current = note(version);
      const theirs = (screen: Record<NoteField, number>, state: EditorSession) =>
        Object.fromEntries(NOTE_FIELDS.map((field) => [field, pending(state, field) || screen[field] !== world.server[field] ? screen[field] : server[field]])) as Record<NoteField, number>;
      const base = { ...world, version, next: value + 1, server };
      if (step.during === "save") {
        // The save on its way is answered with the newer note.
        if (!session.sending) return world;
        if (step.merged) {
          const next = editorSessionReducer(send({ type: "merged", current, conflicts: [] }), { type: "save_conflicted", current, merged: true });
          return { ...base, session: next, screen: theirs(world.screen, session), inFlight: {} };
        }
        return { ...base, session: send({ type: "save_conflicted", current, merged: false }), inFlight: {} };
      }
      // Seen by the live view while nothing is on its way.
      if (session.sending) return world;
      if (step.merged) return { ...base, session: send({ type: "merged", current, conflicts: [] }), screen: theirs(world.screen, session) };
      if (hasUnsaved(session)) return { ...base, session: send({ type: "conflict_shown", current }) };
      return { ...base, session: send({ type: "remote_accepted", current }), screen: server };
    }
    case "keep_mine":
      return { ...world, session: send({ type: "kept_mine" }) };
    case "reload_theirs":
      // The person's choice: what is typed here goes, the note as it is now comes back.
      // (Offered by the conflict and failure banners; not modelled while a save is on its way, whose answer would still land.)
      if ((!session.conflict && !session.failure) || session.sending) return world;
      return { ...world, session: send({ type: "remote_accepted", current: note(world.version) }), screen: world.server };
    case "retry":
      return { ...world, session: send({ type: "retried" }) };
    case "draft_not_kept":
      return { ...world, session: send({ type: "draft_kept", kept: false }) };
  }
}

const zero = Object.fromEntries(NOTE_FIELDS.map((field) => [field, 0])) as Record<NoteField, number>;

describe("any sequence of edits, saves, answers and writes made elsewhere", () => {
  it("never loses typed text: it is on the server or still pending", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 80 }), (steps) => {
        let world: World = { session: start, screen: zero, server: zero, inFlight: {}, typed: new Set(), acknowledged: new Set(), next: 1, version: 1 };
        for (const step of steps) {
          world = apply(world, step);
          for (const field of NOTE_FIELDS) {
            const value = world.screen[field];
            if (world.typed.has(value) && !world.acknowledged.has(value)) expect(pending(world.session, field), `${field} after ${step.kind}`).toBe(true);
            // What is on its way is what is on screen, or a newer edit is pending behind it.
            if (world.session.sending?.[field] && !world.session.dirty[field]) expect(world.inFlight[field]).toBe(world.screen[field]);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("never leaves pending text without a next try: one is scheduled, one is on its way, or saving says why it waits", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 80 }), (steps) => {
        let world: World = { session: start, screen: zero, server: zero, inFlight: {}, typed: new Set(), acknowledged: new Set(), next: 1, version: 1 };
        for (const step of steps) {
          const before = world.session;
          world = apply(world, step);
          const { session } = world;
          // "Saved" with something pending only while a save is due at once (asked to try again while one was on its way, which then was merged).
          if (session.status === "saved" && session.again === null) expect(Object.values(session.dirty).some(Boolean)).toBe(false);
          const answered = before.sending !== null && session.sending === null;
          if (answered && Object.values(session.dirty).some(Boolean)) {
            expect(session.again !== null || session.hold !== null).toBe(true);
            if (session.hold) expect(["conflict", "error"]).toContain(session.status);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
