"use client";

import { usePathname, useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from "react";
import { flushSync } from "react-dom";
import { removeDraft, writeDraft } from "@/components/editor/note-draft";
import { TitleField } from "@/components/editor/title-field";
import { NEW_NOTE_PARAM, UNTITLED } from "@/lib/notes/editor-types";
import { discardNewNoteAction, saveNoteAction, startNoteAction } from "@/lib/actions/notes";
import { NOTE_TITLE_MAX } from "@/lib/notes/schemas";

/** What was typed before the note's editor existed, and where the caret was. */
export type TypedDraft = { title: string; body: string; focus: "title" | "body"; selectionStart: number; selectionEnd: number };

type Created = { id: string; version: number };

/** A note "New note" is making: typed into at once, opened once the server has made it. */
type Draft = {
  /** Which press of New note this is: a note made for an earlier draft, since left, is never taken for this one. */
  attempt: number;
  /** Where New note was pressed: going anywhere but the new note from there leaves the draft. */
  from: string;
  /** The note, once made; the page then opens it and its editor takes the draft over (see take). */
  note: Created | null;
  /** Why the server did not make it (the draft stays, with a way to try again). */
  error: string | null;
};

type NewNoteContext = {
  /** Shows an empty note to type in at once and makes it on the server meanwhile; does nothing while a note is being made. */
  start: () => void;
  /** True from New note until the new note's editor has taken over what was typed. */
  creating: boolean;
  /** For the new note's editor: what was typed so far, the draft leaving the page in the same moment. Null when this note has no draft. */
  take: (id: string) => TypedDraft | null;
  /** True while the draft, not the note's editor, answers for this note (its editor must not delete it when it goes). */
  owns: (id: string) => boolean;
};

/** For NewNoteOutlet: the draft and the elements it types into. */
type Surface = {
  draft: Draft | null;
  title: RefObject<HTMLTextAreaElement | null>;
  body: RefObject<HTMLTextAreaElement | null>;
  surface: RefObject<HTMLDivElement | null>;
  page: RefObject<HTMLDivElement | null>;
  retry: () => void;
};

const Context = createContext<NewNoteContext>({ start: () => {}, creating: false, take: () => null, owns: () => false });
const SurfaceContext = createContext<Surface | null>(null);
export const useNewNote = () => useContext(Context);

function createDraftStore() {
  let draft: Draft | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => draft,
    set(next: Draft | null) {
      draft = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const oneLine = (title: string) => title.replace(/\r?\n/g, " ").slice(0, NOTE_TITLE_MAX);
const nothingTyped: TypedDraft = { title: "", body: "", focus: "title", selectionStart: 0, selectionEnd: 0 };

/**
 * "New note" without a wait: the click (or N) shows an empty note with the
 * focus in its title in the same moment, so every key typed from then on is
 * kept, however long the server takes to make the note. Once it exists the
 * note's page opens behind the draft, and its editor takes over what was
 * typed and where the caret was (see NoteEditor). Left before that (a link,
 * Back), the note keeps what was typed, or is deleted when nothing was.
 */
export function NewNoteProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const [store] = useState(createDraftStore);
  const draft = useSyncExternalStore(store.subscribe, store.get, () => null);
  const title = useRef<HTMLTextAreaElement>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const surface = useRef<HTMLDivElement>(null);
  const page = useRef<HTMLDivElement>(null);
  const attempts = useRef(0);
  /** What was typed in drafts left before their note existed, by attempt. */
  const leftText = useRef(new Map<number, TypedDraft>());
  /** Notes made for drafts that were left: the draft saves what was typed to them, or deletes them. */
  const leftNotes = useRef(new Set<string>());

  const typed = useCallback((): TypedDraft => {
    const focus = document.activeElement === body.current ? "body" : "title";
    const field = focus === "body" ? body.current : title.current;
    return {
      title: oneLine(title.current?.value ?? ""),
      body: body.current?.value ?? "",
      focus,
      selectionStart: field?.selectionStart ?? 0,
      selectionEnd: field?.selectionEnd ?? 0,
    };
  }, []);

  /** A note whose draft was left: it keeps what was typed, or goes when nothing was. */
  const settleLeft = useCallback(
    async (note: Created, text: TypedDraft) => {
      leftNotes.current.add(note.id);
      if (!text.title.trim() && !text.body.trim()) {
        await discardNewNoteAction(note).catch(() => null);
      } else {
        const content = text.body.trim() ? text.body.split("\n").map((line) => ({ type: "paragraph", content: line })) : undefined;
        const title = text.title.trim() || UNTITLED;
        // Kept in this browser until the save is acknowledged: if it fails, opening the note offers the text back.
        writeDraft({ noteId: note.id, baseVersion: note.version, title, savedAt: new Date().toISOString() }, content && JSON.stringify(content));
        const saved = await saveNoteAction({ id: note.id, version: note.version, session: crypto.randomUUID(), title, content }).catch(() => null);
        if (saved?.ok) removeDraft(note.id);
      }
      router.refresh();
    },
    [router],
  );

  const create = useCallback(
    async (attempt: number) => {
      const result = await startNoteAction().catch(() => null);
      const current = store.get();
      if (current?.attempt !== attempt) {
        // Left while it was being made (see the effect below).
        if (result?.ok) await settleLeft(result, leftText.current.get(attempt) ?? nothingTyped);
        leftText.current.delete(attempt);
      } else if (result?.ok) {
        store.set({ ...current, note: { id: result.id, version: result.version } });
        router.push(`/notes/${result.id}?${NEW_NOTE_PARAM}=1`);
      } else {
        store.set({ ...current, error: result?.message ?? "The note could not be made: check your connection. What you typed is still here; try again." });
      }
    },
    [router, settleLeft, store],
  );

  const start = useCallback(() => {
    if (store.get()) return;
    const attempt = ++attempts.current;
    // Shown and focused before this event ends, so the very next key lands in the title.
    flushSync(() => store.set({ attempt, from: window.location.pathname, note: null, error: null }));
    title.current?.focus();
    void create(attempt);
  }, [create, store]);

  const retry = useCallback(() => {
    const current = store.get();
    if (!current) return;
    store.set({ ...current, error: null });
    void create(current.attempt);
  }, [create, store]);

  const take = useCallback(
    (id: string): TypedDraft | null => {
      if (store.get()?.note?.id !== id) return null;
      const text = typed();
      // The page shows again now, not at React's next render: the editor focuses it in this same moment.
      if (surface.current) surface.current.hidden = true;
      if (page.current) page.current.style.display = "contents";
      store.set(null);
      return text;
    },
    [store, typed],
  );

  const owns = useCallback((id: string) => store.get()?.note?.id === id || leftNotes.current.has(id), [store]);

  // Leaving the draft for another page (a link, Back) before its editor took over.
  useEffect(() => {
    const current = store.get();
    if (!current || pathname === current.from || (current.note && pathname === `/notes/${current.note.id}`)) return;
    const text = typed();
    store.set(null);
    if (current.note) void settleLeft(current.note, text);
    else leftText.current.set(current.attempt, text);
  }, [pathname, settleLeft, store, typed]);

  // Closing the tab or going to another site with something typed and no note to keep it in yet: the browser asks first, as the editor does.
  useEffect(() => {
    if (!draft) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const text = typed();
      if (text.title.trim() || text.body.trim()) event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [draft, typed]);

  const value = useMemo<NewNoteContext>(() => ({ start, creating: draft !== null, take, owns }), [start, draft, take, owns]);
  const surfaceValue = useMemo<Surface>(() => ({ draft, title, body, surface, page, retry }), [draft, retry]);

  return (
    <Context.Provider value={value}>
      <SurfaceContext.Provider value={surfaceValue}>{children}</SurfaceContext.Provider>
    </Context.Provider>
  );
}

/**
 * The page's content, or while a new note is being made, an empty note to
 * type in (the page behind it keeps loading, hidden, until the note's editor
 * takes over).
 */
export function NewNoteOutlet({ children }: { children: ReactNode }) {
  const context = useContext(SurfaceContext);
  if (!context) return <>{children}</>;
  const { draft, title, body, surface, page, retry } = context;
  return (
    <>
      {draft ? (
        <div ref={surface} className="editor-page" aria-busy={draft.error === null}>
          <div className="editor-bar">
            <div className="spacer" />
            <span className="save-status" data-state={draft.error ? "error" : "saving"} role="status">
              <span className="dot" aria-hidden="true" />
              {draft.error ? "Not made yet" : "Creating…"}
            </span>
          </div>
          {draft.error ? (
            <div className="alert alert-error" role="alert">
              <p>{draft.error}</p>
              <button type="button" className="btn btn-sm" onClick={retry}>
                Try again
              </button>
            </div>
          ) : null}
          <TitleField
            ref={title}
            id="new-note-title"
            onToBody={() => {
              body.current?.focus();
              body.current?.setSelectionRange(0, 0);
            }}
          />
          <div className="note-meta" aria-hidden="true" />
          <label htmlFor="new-note-body" className="sr-only">
            Note body
          </label>
          <textarea ref={body} id="new-note-body" className="draft-body" dir="auto" placeholder="Enter text" spellCheck />
        </div>
      ) : null}
      <div ref={page} style={{ display: draft ? "none" : "contents" }}>
        {children}
      </div>
    </>
  );
}
