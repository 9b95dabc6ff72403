"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { FOCUS_SEARCH_FLAG, SearchField } from "@/components/notes/search-field";

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
  const timer = useRef<number | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);

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

  return (
    <SearchField
      value={value}
      onValueChange={onChange}
      onEnter={() => {
        window.clearTimeout(timer.current);
        navigate(value);
      }}
      rows="[data-note-row]"
      inputRef={input}
      pending={pending}
      placeholder="Search titles and text…"
      help="Results update as you type. Press the down arrow to move to the results."
    />
  );
}
