"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { NoteList } from "@/components/notes/note-list";
import { SearchField } from "@/components/notes/search-field";
import { SEARCH_INPUT_ID } from "@/components/notes/search-field";
import { PinIcon } from "@/components/ui/icons";
import { listPaneNotesAction, type NotesPane as PaneNotes } from "@/lib/actions/notes";
import type { NoteRow } from "@/lib/notes/rows";
import { UNTITLED } from "@/lib/notes/editor-types";

/** From this width a note opens beside the list of notes; narrower, each is a page of its own. */
const TWO_PANE_QUERY = "(min-width: 1024px)";
const NOTE_PATHNAME = /^\/notes\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const SEARCH_DEBOUNCE_MS = 150;
/** Saves come every second or so while a person types: the list follows once they pause. */
const CHANGED_DEBOUNCE_MS = 1500;
const PANE_ROW = "[data-pane-row]";
/**
 * The list is read once the open note's editor is ready: the note asked for
 * comes first (read while a 2,000-block note opened, it made the opening
 * about 1.6× slower). A note that never gets an editor (a missing one) waits
 * this long.
 */
const NOTE_FIRST_MS = 2000;

type PaneContext = {
  /** The open note was saved: its row (title, text, place) follows. */
  changed: () => void;
  /** The open note's title as it is being typed: its row shows it at once. */
  titled: (id: string, title: string) => void;
  /** The open note's editor exists: Enter on its row (before or after) puts the focus in its body. */
  opened: (id: string, focusBody: () => void) => void;
};

const Context = createContext<PaneContext>({ changed: () => {}, titled: () => {}, opened: () => {} });
/** For the note's editor: how it tells the list beside it what happened. A no-op without a list (phones, tablets). */
export const useNotesPane = () => useContext(Context);

function subscribeWide(onChange: () => void) {
  const query = window.matchMedia(TWO_PANE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True at two-pane widths; false on the server, which does not know the width (CSS shows the empty pane there). */
function useTwoPane(): boolean {
  return useSyncExternalStore(subscribeWide, () => window.matchMedia(TWO_PANE_QUERY).matches, () => false);
}

/**
 * The notes pages' frame. On a desktop (≥ 1,024 px) an open note shows
 * beside the list of notes, with its own search and tag filter: ↑/↓ move
 * through the list, Enter opens a note with the focus in its body, Esc in the
 * body goes back to its row. The address still names the note alone, so
 * links and reloads open it as before; phones and tablets keep one pane.
 * `refreshed` changes when the page is refreshed from the server (after a
 * delete, say), and the list is read again then.
 */
export function NotesSplit({ refreshed, children }: { refreshed: number; children: ReactNode }) {
  const pathname = usePathname();
  const openId = NOTE_PATHNAME.exec(pathname)?.[1]?.toLowerCase() ?? null;
  const twoPane = useTwoPane() && openId !== null;
  const [changes, setChanges] = useState(0);
  const changedTimer = useRef<number | undefined>(undefined);
  /** The note Enter was pressed on, until its editor exists. */
  const editNext = useRef<string | null>(null);
  /** How to put the focus in the open note's body. */
  const focusOpen = useRef<{ id: string; focus: () => void } | null>(null);
  /** The note whose editor is ready. */
  const [readyId, setReadyId] = useState<string | null>(null);
  /** The open note's title as typed, ahead of its save. */
  const [typedTitle, setTypedTitle] = useState<{ id: string; title: string } | null>(null);

  const context = useMemo<PaneContext>(
    () => ({
      changed: () => {
        window.clearTimeout(changedTimer.current);
        changedTimer.current = window.setTimeout(() => setChanges((count) => count + 1), CHANGED_DEBOUNCE_MS);
      },
      titled: (id, title) => setTypedTitle({ id, title: title.trim() || UNTITLED }),
      opened: (id, focus) => {
        focusOpen.current = { id, focus };
        setReadyId(id);
        if (editNext.current !== id) return;
        editNext.current = null;
        focus();
      },
    }),
    [],
  );
  useEffect(() => () => window.clearTimeout(changedTimer.current), []);

  // Esc in the open note's title or body: back to its row in the list (or the search, when a filter hides it).
  useEffect(() => {
    if (!twoPane) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || document.querySelector("dialog[open]")) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (!target?.closest(".notes-split-note")) return;
      // The body's own Esc closes its open menu and keeps the focus, or lets the focus go: only then is it ours.
      const fromBody = target.isContentEditable && document.activeElement !== target;
      const fromTitle = target.id === "note-title" && !event.defaultPrevented;
      if (!fromBody && !fromTitle) return;
      event.preventDefault();
      (document.querySelector<HTMLElement>(`${PANE_ROW}[aria-current="page"]`) ?? document.getElementById(SEARCH_INPUT_ID))?.focus();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [twoPane]);

  // The open note's own row opens nothing again (Enter goes back into its body); another row opens its note, and after Enter its body takes the focus.
  const open = useCallback(
    (id: string, event: React.KeyboardEvent<HTMLAnchorElement> | React.MouseEvent<HTMLAnchorElement>) => {
      const keyboard = event.type === "keydown";
      // A click with a modifier (a new tab or window) is the browser's.
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (id === openId) {
        event.preventDefault();
        if (keyboard && focusOpen.current?.id === id) focusOpen.current.focus();
      } else if (keyboard) {
        editNext.current = id;
      }
    },
    [openId],
  );

  if (openId === null) return <Context.Provider value={context}>{children}</Context.Provider>;
  return (
    <Context.Provider value={context}>
      <div className="notes-split">
        <nav className="notes-pane" aria-label="Your notes">
          {twoPane ? (
            <PaneList
              openId={openId}
              noteReady={readyId === openId}
              typedTitle={typedTitle?.id === openId ? typedTitle.title : null}
              reload={`${refreshed}:${changes}`}
              onOpen={open}
            />
          ) : null}
        </nav>
        <div className="notes-split-note">{children}</div>
      </div>
    </Context.Provider>
  );
}

type Loaded = ({ ok: true } & PaneNotes) | { ok: false; message: string };

/** The list itself: read when shown, and again when the search, the tag, the open note or `reload` change, or the window is back in front. */
function PaneList({
  openId,
  noteReady,
  typedTitle,
  reload,
  onOpen,
}: {
  openId: string;
  noteReady: boolean;
  typedTitle: string | null;
  reload: string;
  onOpen: (id: string, event: React.KeyboardEvent<HTMLAnchorElement> | React.MouseEvent<HTMLAnchorElement>) => void;
}) {
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState("");
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [pending, setPending] = useState(true);
  const [returns, setReturns] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const timer = useRef<number | undefined>(undefined);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const back = () => document.visibilityState === "visible" && setReturns((count) => count + 1);
    window.addEventListener("focus", back);
    document.addEventListener("visibilitychange", back);
    return () => {
      window.removeEventListener("focus", back);
      document.removeEventListener("visibilitychange", back);
      window.clearTimeout(timer.current);
    };
  }, []);

  // Without an editor (a note that does not exist), the list comes after a while all the same.
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  useEffect(() => {
    const wait = window.setTimeout(() => setWaitedFor(openId), NOTE_FIRST_MS);
    return () => window.clearTimeout(wait);
  }, [openId]);
  const noteFirst = !noteReady && waitedFor !== openId;

  useEffect(() => {
    if (noteFirst) return;
    let stale = false;
    listPaneNotesAction({ q: search || undefined, tag: tag || undefined }).then(
      (result) => {
        if (stale) return;
        setLoaded(result);
        setNow(Date.now());
        setPending(false);
      },
      (err: unknown) => {
        if (stale) return;
        // Offline, the message below says all there is; otherwise the reason goes to the console too.
        if (navigator.onLine) console.error("The notes beside the open note could not be listed:", err);
        setLoaded({ ok: false, message: "Your notes could not be listed: check your connection." });
        setPending(false);
      },
    );
    return () => {
      stale = true;
    };
  }, [noteFirst, search, tag, openId, reload, returns]);

  // The open note's row in view once it is listed (a long list may have it further down). The list is
  // scrolled, not the row: scrollIntoView would move where Tab starts from to the row, past the search.
  useEffect(() => {
    const scroller = list.current;
    const row = scroller?.querySelector<HTMLElement>(`${PANE_ROW}[aria-current="page"]`);
    if (!scroller || !row) return;
    const top = row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    if (top < 0 || top + row.offsetHeight > scroller.clientHeight) scroller.scrollTop += top - scroller.clientHeight / 3;
  }, [openId, loaded]);

  function searchFor(next: string) {
    setTyped(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      setPending(true);
      setSearch(next.trim());
    }, SEARCH_DEBOUNCE_MS);
  }

  const notes = loaded?.ok ? loaded : null;
  // The open note's row shows its title as typed; as saved (its search marks kept) once they agree.
  const withTypedTitle = (rows: NoteRow[]) =>
    typedTitle === null
      ? rows
      : rows.map((row) => (row.id === openId && row.title.map((part) => part.text).join("") !== typedTitle ? { ...row, title: [{ text: typedTitle, match: false }] } : row));
  const shown = notes ? notes.pinned.length + notes.others.length : 0;
  const total = notes ? notes.pinnedTotal + notes.othersTotal : 0;
  const allHref = `/notes${search || tag ? `?${new URLSearchParams({ ...(search ? { q: search } : {}), ...(tag ? { tag } : {}) })}` : ""}`;

  return (
    <>
      <div className="notes-pane-tools">
        <SearchField
          value={typed}
          onValueChange={searchFor}
          rows={PANE_ROW}
          pending={pending}
          placeholder="Search notes…"
          help="The list updates as you type. Press the down arrow to move to the notes, Enter on one to edit it, Escape in a note to come back."
          compact
        />
        {notes && notes.tags.length > 0 ? (
          <select className="input notes-pane-tag" aria-label="Filter by tag" value={tag} onChange={(event) => setTag(event.target.value)}>
            <option value="">All tags</option>
            {notes.tags.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.noteCount})
              </option>
            ))}
          </select>
        ) : null}
      </div>

      <div ref={list} className="notes-pane-list">
        {loaded === null ? (
          <p className="result-summary" aria-busy="true">
            Loading your notes…
          </p>
        ) : !loaded.ok ? (
          <div className="alert alert-error" role="alert">
            <p>{loaded.message}</p>
            <button type="button" className="btn btn-sm" onClick={() => setReturns((count) => count + 1)}>
              Try again
            </button>
          </div>
        ) : shown === 0 ? (
          <p className="result-summary" role="status">
            {search || tag ? "No notes match." : "No notes yet."}
          </p>
        ) : (
          <>
            <p className="sr-only" aria-live="polite">
              {total} {total === 1 ? "note" : "notes"}
              {search ? ` match “${search}”` : ""}
            </p>
            {loaded.pinned.length > 0 ? (
              <>
                <h2 className="note-group-title">
                  <PinIcon size={13} />
                  Pinned
                </h2>
                <NoteList rows={withTypedTitle(loaded.pinned)} now={now} label="Pinned notes" kind="pane-row" current={openId} onOpen={onOpen} />
                {loaded.others.length > 0 ? <h2 className="note-group-title">Others</h2> : null}
              </>
            ) : null}
            {loaded.others.length > 0 ? <NoteList rows={withTypedTitle(loaded.others)} now={now} kind="pane-row" current={openId} onOpen={onOpen} /> : null}
            {total > shown ? (
              <p className="result-summary notes-pane-more">
                <Link href={allHref}>All {total} notes</Link>
              </p>
            ) : null}
          </>
        )}
      </div>
    </>
  );
}
