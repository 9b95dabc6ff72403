"use client";

import { usePathname, useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from "react";
import { flushSync } from "react-dom";
import { removeDraft, writeDraft } from "@/components/editor/note-draft";
import { randomUuids } from "@/components/editor/random-ids";
import { TitleField } from "@/components/editor/title-field";
import { paragraphsOf } from "@/lib/notes/editor-session";
import { NEW_NOTE_PARAM, UNTITLED, type TypedDraft } from "@/lib/notes/editor-types";
import { saveNoteAction } from "@/lib/actions/notes";
import { NOTE_TITLE_MAX } from "@/lib/notes/schemas";

/** A note "New note" opened, typed into at once while its page loads. */
type Draft = {
  /** The new note's id, made here: its first save creates the note with it. */
  id: string;
  /** Where New note was pressed: going anywhere but the new note from there leaves the draft. */
  from: string;
  /** Whether the address has shown the new note's page yet: Back from there to `from` leaves the draft too. */
  reached: boolean;
};

type NewNoteContext = {
  /** Shows an empty note to type in at once and opens its page meanwhile; does nothing while one is open. */
  start: () => void;
  /** True from New note until the new note's editor has taken over what was typed. */
  opening: boolean;
  /** For the new note's editor: what was typed so far, the draft leaving the page in the same moment. Null when this note has no draft. */
  take: (id: string) => TypedDraft | null;
};

/** For NewNoteOutlet: the draft and the elements it types into. */
type Surface = {
  draft: Draft | null;
  title: RefObject<HTMLTextAreaElement | null>;
  body: RefObject<HTMLTextAreaElement | null>;
  surface: RefObject<HTMLDivElement | null>;
  page: RefObject<HTMLDivElement | null>;
};

const Context = createContext<NewNoteContext>({ start: () => {}, opening: false, take: () => null });
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

/**
 * "New note" without a wait: the click (or N) shows an empty note with the
 * focus in its title in the same moment, so every key typed from then on is
 * kept while the note's page loads behind it; its editor then takes over what
 * was typed and where the caret was. Nothing is stored until something is
 * typed: the note's first save creates it, with the id made here. Left before
 * its editor took over, what was typed is saved as the note; nothing typed,
 * nothing stored.
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

  const start = useCallback(() => {
    if (store.get()) return;
    const id = randomUuids(1)[0]!;
    // Shown and focused before this event ends, so the very next key lands in the title.
    flushSync(() => store.set({ id, from: window.location.pathname, reached: false }));
    title.current?.focus();
    router.push(`/notes/${id}?${NEW_NOTE_PARAM}=1`);
  }, [router, store]);

  const take = useCallback(
    (id: string): TypedDraft | null => {
      if (store.get()?.id !== id) return null;
      const text = typed();
      // The page shows again now, not at React's next render: the editor focuses it in this same moment.
      if (surface.current) surface.current.hidden = true;
      if (page.current) page.current.style.display = "contents";
      store.set(null);
      return text;
    },
    [store, typed],
  );

  // Left for another page (a link, Back) before the note's editor took over: what was typed becomes the note.
  useEffect(() => {
    const current = store.get();
    if (!current) return;
    if (pathname === `/notes/${current.id}`) {
      current.reached = true;
      return;
    }
    if (pathname === current.from && !current.reached) return;
    const text = typed();
    store.set(null);
    if (!text.title.trim() && !text.body.trim()) return;
    const content = text.body.trim() ? paragraphsOf(text.body) : undefined;
    const note = { id: current.id, title: text.title.trim() || UNTITLED };
    // Kept in this browser until the save is acknowledged; a failure is said with the note's id.
    writeDraft({ noteId: note.id, baseVersion: 0, title: note.title, savedAt: new Date().toISOString() }, content && JSON.stringify(content));
    void saveNoteAction({ ...note, version: 0, session: randomUuids(1)[0]!, content })
      .then((saved) => {
        if (!saved.ok) throw new Error(saved.error === "conflict" ? "written elsewhere meanwhile" : saved.message);
        removeDraft(note.id);
        router.refresh();
      })
      .catch((err: unknown) => console.error(`The new note ${note.id} was not saved; what was typed is kept in this browser (open /notes/${note.id}?${NEW_NOTE_PARAM}=1):`, err));
  }, [pathname, router, store, typed]);

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

  const value = useMemo<NewNoteContext>(() => ({ start, opening: draft !== null, take }), [start, draft, take]);
  const surfaceValue = useMemo<Surface>(() => ({ draft, title, body, surface, page }), [draft]);

  return (
    <Context.Provider value={value}>
      <SurfaceContext.Provider value={surfaceValue}>{children}</SurfaceContext.Provider>
    </Context.Provider>
  );
}

/**
 * The page's content, or while a new note's page loads, an empty note to
 * type in (the page behind it keeps loading, hidden, until the note's editor
 * takes over).
 */
export function NewNoteOutlet({ children }: { children: ReactNode }) {
  const context = useContext(SurfaceContext);
  if (!context) return <>{children}</>;
  const { draft, title, body, surface, page } = context;
  return (
    <>
      {draft ? (
        <div ref={surface} className="editor-page" aria-busy="true">
          <div className="editor-bar">
            <div className="spacer" />
            <span className="save-status" data-state="saved" role="status">
              <span className="dot" aria-hidden="true" />
              New note
            </span>
          </div>
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
