"use client";

import type { Ref } from "react";
import { SearchIcon, XIcon } from "@/components/ui/icons";
import { SEARCH_MAX } from "@/lib/notes/schemas";

/** The notes search box (the notes page's, or the list's beside a note): / and Ctrl+K focus it. */
export const SEARCH_INPUT_ID = "note-search";
/** Set before navigating to /notes so its search box takes the focus once it mounts. */
export const FOCUS_SEARCH_FLAG = "notes:focus-search";

/**
 * The notes' search box (the notes page's, the list's beside an open note):
 * `/` or Ctrl/⌘+K focuses it, Esc clears it (then leaves it), ↓ moves to the
 * first of the `rows` it filters, Enter searches at once.
 */
export function SearchField({
  value,
  onValueChange,
  onEnter,
  rows,
  pending,
  placeholder,
  help,
  compact = false,
  inputRef,
}: {
  value: string;
  onValueChange: (value: string) => void;
  onEnter?: () => void;
  rows: string;
  pending: boolean;
  placeholder: string;
  help: string;
  compact?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const helpId = `${SEARCH_INPUT_ID}-help`;
  return (
    <div className={compact ? "search-box search-box-compact" : "search-box"} role="search" data-pending={pending}>
      <label htmlFor={SEARCH_INPUT_ID} className="sr-only">
        Search notes
      </label>
      <SearchIcon className="search-icon" size={compact ? 16 : 18} />
      <input
        ref={inputRef}
        id={SEARCH_INPUT_ID}
        className="input"
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        maxLength={SEARCH_MAX}
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-describedby={helpId}
        onChange={(event) => onValueChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            if (value) onValueChange("");
            else event.currentTarget.blur();
          } else if (event.key === "ArrowDown") {
            event.preventDefault();
            document.querySelector<HTMLElement>(rows)?.focus();
          } else if (event.key === "Enter") {
            onEnter?.();
          }
        }}
      />
      <span id={helpId} className="sr-only">
        {help}
      </span>
      {value ? (
        <button type="button" className="icon-btn search-clear" aria-label="Clear search" onClick={() => onValueChange("")}>
          <XIcon />
        </button>
      ) : compact ? null : (
        <kbd className="search-kbd" aria-hidden="true">
          /
        </kbd>
      )}
    </div>
  );
}
