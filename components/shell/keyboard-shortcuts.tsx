"use client";

import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { FOCUS_SEARCH_FLAG, SEARCH_INPUT_ID } from "@/components/notes/search-field";
import { useNewNote } from "@/components/shell/new-note";


const ShortcutsContext = createContext<{ showHelp: () => void }>({ showHelp: () => {} });
export const useShortcuts = () => useContext(ShortcutsContext);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("[contenteditable='true']") !== null;
}

function focusSearch(router: ReturnType<typeof useRouter>) {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input instanceof HTMLInputElement) {
    input.focus();
    input.select();
    return;
  }
  sessionStorage.setItem(FOCUS_SEARCH_FLAG, "1");
  router.push("/notes");
}

/**
 * App-wide keys: N new note, / or Ctrl/⌘+K search, ? this list. Single keys
 * are ignored while typing; Ctrl/⌘+K works everywhere, the editor included.
 */
export function KeyboardShortcuts({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [helpOpen, setHelpOpen] = useState(false);
  const { start: startNewNote } = useNewNote();
  const dialog = useRef<HTMLDialogElement>(null);
  const showHelp = useCallback(() => setHelpOpen(true), []);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const mod = event.metaKey || event.ctrlKey;
      if (mod && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        focusSearch(router);
        return;
      }
      if (mod || event.altKey || isTyping(event.target) || document.querySelector("dialog[open]")) return;
      if (event.key === "n" || event.key === "N") {
        event.preventDefault();
        // Does nothing while a note is being made: its draft has the keys.
        startNewNote();
      } else if (event.key === "/") {
        event.preventDefault();
        focusSearch(router);
      } else if (event.key === "?") {
        event.preventDefault();
        setHelpOpen(true);
      }
    }
    window.addEventListener("keydown", onKeyDown);
    // Keys pressed before the page hydrates do nothing; this says they work now.
    document.documentElement.dataset.shortcuts = "ready";
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [router, startNewNote]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (helpOpen && !element.open) element.showModal();
    if (!helpOpen && element.open) element.close();
  }, [helpOpen]);

  return (
    <ShortcutsContext.Provider value={{ showHelp }}>
      {children}
      <dialog ref={dialog} className="dialog" aria-labelledby="shortcuts-title" onClose={() => setHelpOpen(false)}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <dl className="shortcut-list">
          <dt>
            <kbd>N</kbd>
          </dt>
          <dd>New note</dd>
          <dt>
            <kbd>/</kbd> or <kbd>Ctrl</kbd> <kbd>K</kbd>
          </dt>
          <dd>Search notes</dd>
          <dt>
            <kbd>↑</kbd> <kbd>↓</kbd>
          </dt>
          <dd>Move through the notes</dd>
          <dt>
            <kbd>Enter</kbd> on a note
          </dt>
          <dd>Open it to edit</dd>
          <dt>
            <kbd>Esc</kbd> in a note
          </dt>
          <dd>Back to the list beside it (wide screens)</dd>
          <dt>
            <kbd>Ctrl</kbd> <kbd>S</kbd>
          </dt>
          <dd>Save now (notes also save as you type)</dd>
          <dt>
            <kbd>/</kbd> in the editor
          </dt>
          <dd>Insert a block: heading, list, checklist, code, table, image</dd>
          <dt>
            <kbd>?</kbd>
          </dt>
          <dd>This list</dd>
        </dl>
        <div className="actions">
          <button type="button" className="btn" onClick={() => setHelpOpen(false)} autoFocus>
            Close
          </button>
        </div>
      </dialog>
    </ShortcutsContext.Provider>
  );
}
