"use client";

import { useEffect, useId, useMemo, useRef, useState } from "react";
import { CheckIcon, PlusIcon, TagIcon, XIcon } from "@/components/ui/icons";
import { createTagAction } from "@/lib/actions/tags";
import { TAG_NAME_MAX, type TTag } from "@/lib/tags/schemas";

/**
 * The note's tags as removable chips, and a combobox to add more: type to
 * filter, arrows to move, Enter to toggle, or Enter on "Create …" to make a
 * new tag and apply it in one go.
 */
export function TagPicker({
  selected,
  allTags,
  onChange,
  onTagCreated,
}: {
  selected: TTag[];
  allTags: TTag[];
  onChange: (tags: TTag[]) => void;
  onTagCreated: (tag: TTag) => void;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const listId = useId();

  const selectedIds = useMemo(() => new Set(selected.map((tag) => tag.id)), [selected]);
  const trimmed = query.trim();
  const matches = useMemo(
    () => allTags.filter((tag) => tag.name.toLowerCase().includes(trimmed.toLowerCase())),
    [allTags, trimmed],
  );
  const exact = allTags.some((tag) => tag.name.toLowerCase() === trimmed.toLowerCase());
  const canCreate = trimmed.length > 0 && !exact;
  const optionCount = matches.length + (canCreate ? 1 : 0);

  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  // A new search starts at its first option (set while rendering, not in an effect, to skip a render).
  const [activeFor, setActiveFor] = useState(trimmed);
  if (activeFor !== trimmed) {
    setActiveFor(trimmed);
    setActive(0);
  }

  function close(returnFocus = true) {
    setOpen(false);
    setQuery("");
    setError(null);
    if (returnFocus) trigger.current?.focus();
  }

  function toggle(tag: TTag) {
    onChange(selectedIds.has(tag.id) ? selected.filter((t) => t.id !== tag.id) : [...selected, tag]);
  }

  async function create() {
    if (!canCreate || creating) return;
    setCreating(true);
    setError(null);
    const result = await createTagAction(trimmed);
    setCreating(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    onTagCreated(result.tag);
    onChange([...selected, result.tag]);
    setQuery("");
  }

  function choose(index: number) {
    if (index < matches.length) toggle(matches[index]!);
    else void create();
  }

  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <div className="tag-picker" ref={root}>
      {selected.map((tag) => (
        <span key={tag.id} className="tag" title={tag.name}>
          <span className="tag-text" dir="auto">
            {tag.name}
          </span>
          <button type="button" className="tag-remove" aria-label={`Remove tag ${tag.name}`} onClick={() => toggle(tag)}>
            <XIcon size={11} />
          </button>
        </span>
      ))}
      <button
        ref={trigger}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <TagIcon size={14} />
        {selected.length === 0 ? "Add tags" : "Tags"}
      </button>
      {open ? (
        <div className="popover" role="group" aria-label="Tags">
          <label className="sr-only" htmlFor={`${listId}-input`}>
            Find or create a tag
          </label>
          <input
            ref={input}
            id={`${listId}-input`}
            className="input"
            placeholder="Find or create a tag…"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={optionCount > 0 ? optionId(active) : undefined}
            aria-autocomplete="list"
            maxLength={TAG_NAME_MAX}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown") {
                event.preventDefault();
                setActive((index) => (optionCount ? (index + 1) % optionCount : 0));
              } else if (event.key === "ArrowUp") {
                event.preventDefault();
                setActive((index) => (optionCount ? (index - 1 + optionCount) % optionCount : 0));
              } else if (event.key === "Enter") {
                event.preventDefault();
                if (optionCount > 0) choose(Math.min(active, optionCount - 1));
              } else if (event.key === "Escape") {
                event.preventDefault();
                event.stopPropagation();
                close();
              }
            }}
          />
          <ul className="option-list" id={listId} role="listbox" aria-multiselectable="true" aria-label="Tags">
            {matches.map((tag, index) => (
              <li
                key={tag.id}
                id={optionId(index)}
                role="option"
                aria-selected={selectedIds.has(tag.id)}
                data-active={index === active}
                className="option"
                onPointerDown={(event) => event.preventDefault()}
                onClick={() => toggle(tag)}
                onMouseEnter={() => setActive(index)}
              >
                <span className="check">{selectedIds.has(tag.id) ? <CheckIcon size={14} /> : null}</span>
                {tag.name}
              </li>
            ))}
            {canCreate ? (
              <li
                id={optionId(matches.length)}
                role="option"
                aria-selected="false"
                data-active={active === matches.length}
                className="option"
                onPointerDown={(event) => event.preventDefault()}
                onClick={() => void create()}
                onMouseEnter={() => setActive(matches.length)}
              >
                <span className="check">
                  <PlusIcon size={14} />
                </span>
                {creating ? "Creating…" : `Create “${trimmed}”`}
              </li>
            ) : null}
          </ul>
          {optionCount === 0 ? <p className="option-hint">Type a name to create your first tag.</p> : null}
          {error ? (
            <p className="inline-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
