"use client";

import { useEffect, type ReactNode } from "react";
import { SEARCH_INPUT_ID } from "@/components/notes/search-field";

/**
 * Up and down arrows move between the notes matching `rows` (every list of
 * them on the page: pinned, then the rest), and from the first back up into
 * the search box. Once the list is idle, the block editor's code is fetched,
 * so opening a note does not wait for it.
 */
export function NoteListKeys({ rows: selector, children }: { rows: string; children: ReactNode }) {
  useEffect(() => {
    const preload = () => void import("@/components/editor/block-editor").catch(() => undefined);
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(preload, 500);
      return () => window.clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(preload, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
  return (
    <div
      onKeyDown={(event) => {
        if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
        const rows = Array.from(document.querySelectorAll<HTMLAnchorElement>(selector));
        const index = rows.indexOf(document.activeElement as HTMLAnchorElement);
        if (index < 0) return;
        event.preventDefault();
        const next = event.key === "ArrowDown" ? rows[index + 1] : rows[index - 1];
        if (next) next.focus();
        else if (event.key === "ArrowUp") document.getElementById(SEARCH_INPUT_ID)?.focus();
      }}
    >
      {children}
    </div>
  );
}
