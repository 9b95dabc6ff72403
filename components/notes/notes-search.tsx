"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { FOCUS_SEARCH_FLAG, SEARCH_INPUT_ID } from "@/components/shell/keyboard-shortcuts";
import { SearchIcon, XIcon } from "@/components/ui/icons";

const DEBOUNCE_MS = 120;

/**
 * Filters the list as you type. The query lives in the URL (?q=), so a search
 * can be shared, bookmarked and reloaded; typing replaces the history entry
 * rather than adding one per keystroke.
 */
export function NotesSearch({ initialQuery }: { initialQuery: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [value, setValue] = useState(initialQuery);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);

  // Back/forward and tag links change ?q= without typing: follow them unless the person is typing.
  useEffect(() => {
    if (document.activeElement !== input.current) setValue(initialQuery);
  }, [initialQuery]);

  useEffect(() => {
    if (sessionStorage.getItem(FOCUS_SEARCH_FLAG)) {
      sessionStorage.removeItem(FOCUS_SEARCH_FLAG);
      input.current?.focus();
    }
    return () => window.clearTimeout(timer.current);
  }, []);

  function navigate(query: string) {
    const params = new URLSearchParams(searchParams.toString());
    if (query.trim()) params.set("q", query.trim());
    else params.delete("q");
    params.delete("page");
    const search = params.toString();
    startTransition(() => router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false }));
  }

  function onChange(next: string) {
    setValue(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => navigate(next), DEBOUNCE_MS);
  }

  function firstResult(): HTMLAnchorElement | null {
    return document.querySelector<HTMLAnchorElement>("[data-note-row]");
  }

  return (
    <div className="search-box" role="search" data-pending={pending}>
      <label htmlFor={SEARCH_INPUT_ID} className="sr-only">
        Search notes
      </label>
      <SearchIcon className="search-icon" size={18} />
      <input
        ref={input}
        id={SEARCH_INPUT_ID}
        className="input"
        type="search"
        placeholder="Search titles and text…"
        autoComplete="off"
        spellCheck={false}
        value={value}
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-describedby="search-help"
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            if (value) onChange("");
            else input.current?.blur();
          } else if (event.key === "ArrowDown") {
            event.preventDefault();
            firstResult()?.focus();
          } else if (event.key === "Enter") {
            window.clearTimeout(timer.current);
            navigate(value);
          }
        }}
      />
      <span id="search-help" className="sr-only">
        Results update as you type. Press the down arrow to move to the results.
      </span>
      {value ? (
        <button type="button" className="icon-btn search-clear" aria-label="Clear search" onClick={() => onChange("")}>
          <XIcon />
        </button>
      ) : (
        <kbd className="search-kbd" aria-hidden="true">
          /
        </kbd>
      )}
    </div>
  );
}
