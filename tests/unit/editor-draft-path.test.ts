import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  draftMatches,
  draftOf,
  editorSessionReducer,
  hasUnsaved,
  initialEditorSession,
  unionFields,
  visibleBody,
  type EditorSession,
  type EditorSessionEvent,
  type NoteDraft,
} from "@/lib/notes/editor-session";
import type { EditorNote } from "@/lib/notes/editor-types";
import { INITIAL_SETTINGS } from "@/lib/notes/settings";

// The path of a person's typing through the browser's draft and the server,
// as the open note's session (lib/notes/editor-session.ts) drives it: the
// page opening and mounting twice (React's development mode), the body's
// editor coming later, saves that hang, fail or land after the tab closed, a
// crash at any point, the draft restored and saved or discarded. The body a
// save or a draft takes is always the one the person sees (visibleBody), so a
// word typed is never lost unless the person discards it, and no save sends a
// body the person did not see.

type Block = { type: "paragraph"; content: string };
const block = (text: string): Block => ({ type: "paragraph", content: text });
const words = (content: unknown): string[] => (Array.isArray(content) ? content.map((item) => (item as Block).content) : []);

type Page = {
  state: EditorSession;
  /** The block editor's document, once it exists. */
  editor: Block[] | null;
  /** A save on its way: the version it is conditional on and the body it carries. */
  inFlight: { version: number; content: unknown[] | undefined } | null;
};

type World = {
  server: { version: number; content: Block[] };
  /** The browser's localStorage draft of this note. */
  storage: NoteDraft | null;
  page: Page | null;
  /** Words typed and not discarded by the person since. */
  kept: Set<string>;
  next: number;
};

type Step =
  | { kind: "open" }
  | { kind: "remount" }
  | { kind: "editor_ready" }
  | { kind: "type" }
  | { kind: "save" }
  | { kind: "answer"; outcome: "ok" | "offline" | "server" }
  | { kind: "hold_timer" }
  | { kind: "leave"; lands: boolean; pagehide: boolean }
  | { kind: "save_these_changes" }
  | { kind: "discard" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: "open" as const }),
  fc.constant({ kind: "remount" as const }),
  fc.constant({ kind: "editor_ready" as const }),
  fc.constant({ kind: "type" as const }),
  fc.constant({ kind: "type" as const }),
  fc.constant({ kind: "save" as const }),
  fc.record({ kind: fc.constant("answer" as const), outcome: fc.constantFrom("ok" as const, "offline" as const, "server" as const) }),
  fc.constant({ kind: "hold_timer" as const }),
  fc.record({ kind: fc.constant("leave" as const), lands: fc.boolean(), pagehide: fc.boolean() }),
  fc.constant({ kind: "save_these_changes" as const }),
  fc.constant({ kind: "discard" as const }),
);

const NOW = "2026-11-28T10:00:00.000Z";

function serverNote(world: World): EditorNote {
  return { id: "n", title: "Lisbon", content: world.server.content, contentText: words(world.server.content).join("\n"), tags: [], ...INITIAL_SETTINGS, version: world.server.version, updatedAt: NOW };
}

/** What the page keeps in the browser now (its detach, pagehide, a refused save): the fields unsaved or on their way. */
function keepUnsaved(world: World, page: Page): World {
  const { dirty, sending } = page.state;
  const fields = sending ? unionFields(dirty, sending) : dirty;
  if (!Object.values(fields).some(Boolean)) return world;
  return { ...world, storage: draftOf(page.state, fields, visibleBody(page.state, page.editor), NOW) };
}

function dispatch(page: Page, event: EditorSessionEvent): Page {
  return { ...page, state: editorSessionReducer(page.state, event) };
}

/** The page opens the note: a new session, then the browser's draft looked for (a second look, as a remount does, changes nothing). */
function open(world: World): World {
  const page = dispatch({ state: initialEditorSession(serverNote(world)), editor: null, inFlight: null }, { type: "opened", draft: world.storage });
  const storage = world.storage && !page.state.restored ? null : world.storage;
  return { ...world, page, storage };
}

function apply(world: World, step: Step): World {
  const { page } = world;
  if (step.kind === "open") return page ? world : open(world);
  if (!page) return world;
  switch (step.kind) {
    case "remount": {
      // Development mode: the effects' cleanup (the detach keeps what is unsaved), then the same effects again, before the editor exists.
      if (page.editor) return world;
      const kept = keepUnsaved(world, page);
      return { ...kept, page: dispatch(page, { type: "opened", draft: kept.storage }) };
    }
    case "editor_ready": {
      if (page.editor || !page.state.opened) return world;
      const editor = visibleBody(page.state, null) as Block[];
      return { ...world, page: dispatch({ ...page, editor: [...editor] }, { type: "editor_ready" }) };
    }
    case "type": {
      if (!page.editor) return world;
      const word = `w${world.next}`;
      const typed = dispatch({ ...page, editor: [...page.editor, block(word)] }, { type: "changed", field: "content" });
      return { ...world, page: typed, kept: new Set([...world.kept, word]), next: world.next + 1 };
    }
    case "hold_timer":
      // While saving waits (a conflict, a refusal), changes are still kept in the browser after a pause.
      return page.state.hold ? keepUnsaved(world, page) : world;
    case "save": {
      const { state } = page;
      if (state.hold || state.sending || !Object.values(state.dirty).some(Boolean)) return world;
      const content = state.dirty.content ? visibleBody(state, page.editor) : undefined;
      const withDraft = { ...world, storage: draftOf(state, state.dirty, content ?? [], NOW) };
      const sent = dispatch({ ...page, inFlight: { version: state.version, content } }, { type: "save_started" });
      return { ...withDraft, page: sent };
    }
    case "answer": {
      if (!page.inFlight) return world;
      const { inFlight } = page;
      const answeredPage = { ...page, inFlight: null };
      if (step.outcome === "ok") {
        if (inFlight.version !== world.server.version) {
          // Written elsewhere meanwhile (an earlier save that landed after its tab closed): shown as a conflict.
          const current = serverNote(world);
          const next = dispatch(answeredPage, { type: "save_conflicted", current, merged: false });
          return keepUnsaved({ ...world, page: next }, next);
        }
        const server = { version: world.server.version + 1, content: (inFlight.content as Block[] | undefined) ?? world.server.content };
        const next = dispatch(answeredPage, { type: "save_succeeded", version: server.version, updatedAt: NOW, wrote: inFlight.content ? { content: inFlight.content } : {} });
        return { ...world, server, page: next, storage: next.state.status === "saved" ? null : world.storage };
      }
      const next = dispatch(answeredPage, step.outcome === "offline" ? { type: "save_offline" } : { type: "save_failed", error: "server", message: "down" });
      return next.state.status === "error" ? keepUnsaved({ ...world, page: next }, next) : { ...world, page: next };
    }
    case "leave": {
      // The tab closes (pagehide keeps what is unsaved) or crashes (nothing runs); a save on its way may still land.
      const kept = step.pagehide && hasUnsaved(page.state) ? keepUnsaved(world, page) : world;
      const lands = step.lands && page.inFlight && page.inFlight.version === world.server.version;
      const server = lands ? { version: world.server.version + 1, content: (page.inFlight!.content as Block[] | undefined) ?? world.server.content } : world.server;
      if (step.pagehide) return { ...kept, server, page: null };
      // A crash runs nothing: keys typed since the last pause (not yet in a save or the draft) go with the page.
      const stored = new Set([...words(server.content), ...words(world.storage?.content)]);
      return { ...kept, server, page: null, kept: new Set([...world.kept].filter((word) => stored.has(word))) };
    }
    case "save_these_changes":
      return page.state.restored || page.state.failure ? { ...world, page: dispatch(page, { type: "retried" }) } : world;
    case "discard": {
      // The person drops the unsaved changes: the note as it is saved comes back.
      if (!page.state.restored && !page.state.failure && !page.state.conflict) return world;
      if (page.inFlight) return world;
      const shown = dispatch({ ...page, editor: page.editor && [...world.server.content] }, { type: "remote_accepted", current: serverNote(world) });
      return { ...world, page: shown, storage: null, kept: new Set(words(world.server.content)) };
    }
  }
}

describe("the draft path: opening, mounting twice, saving, closing and crashing", () => {
  it("never loses a word typed once it was saved or kept: it is on the server, in the browser's draft or on the page", () => {
    // 500 sequences in the suite; FC_RUNS=5000 (or more) for a deeper search.
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 20, maxLength: 80, size: "max" }), (steps) => {
        let world: World = { server: { version: 1, content: [block("start")] }, storage: null, page: null, kept: new Set(["start"]), next: 1 };
        for (const step of steps) {
          world = apply(world, step);
          const places = [
            ...words(world.server.content),
            ...words(world.storage?.content),
            ...(world.page ? words(visibleBody(world.page.state, world.page.editor)) : []),
          ];
          for (const word of world.kept) expect(places, `${word} after ${JSON.stringify(step)}`).toContain(word);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });

  it("a restored draft is opened as the body the person sees, and a second mount before the editor exists keeps it", () => {
    const draft: NoteDraft = { noteId: "n", baseVersion: 1, content: [block("start"), block("typed")], savedAt: NOW };
    let world: World = { server: { version: 1, content: [block("start")] }, storage: draft, page: null, kept: new Set(), next: 1 };
    world = apply(world, { kind: "open" });
    world = apply(world, { kind: "remount" });
    expect(words(world.storage?.content)).toEqual(["start", "typed"]);
    world = apply(world, { kind: "editor_ready" });
    expect(world.page?.editor).toEqual(draft.content);
    expect(draftMatches(world.storage!, { title: "Lisbon", content: draft.content, tags: [], ...INITIAL_SETTINGS })).toBe(true);
  });

  it("the body before the editor exists is the one it will open with, never an empty one", () => {
    const state = initialEditorSession({ id: "n", title: "T", content: [], contentText: "plain\ntext", tags: [], ...INITIAL_SETTINGS, version: 3, updatedAt: NOW });
    expect(visibleBody(state, null)).toEqual([block("plain"), block("text")]);
    const ready = editorSessionReducer(state, { type: "editor_ready" });
    expect(() => visibleBody(ready, null)).toThrow(/editor/);
    expect(visibleBody(ready, [block("x")])).toEqual([block("x")]);
  });
});

describe("the development-mode close and reopen", () => {
  it("typed, saving when the tab closed, reopened and mounted twice: the words are still there", () => {
    const steps: Step[] = [
      { kind: "open" },
      { kind: "editor_ready" },
      { kind: "type" },
      { kind: "type" },
      { kind: "save" },
      { kind: "leave", lands: false, pagehide: true },
      { kind: "open" },
      { kind: "remount" },
      { kind: "editor_ready" },
      { kind: "save_these_changes" },
      { kind: "save" },
      { kind: "answer", outcome: "ok" },
    ];
    let world: World = { server: { version: 1, content: [block("start")] }, storage: null, page: null, kept: new Set(["start"]), next: 1 };
    for (const step of steps) world = apply(world, step);
    expect(words(world.server.content)).toEqual(["start", "w1", "w2"]);
    expect(world.storage).toBeNull();
  });
});
