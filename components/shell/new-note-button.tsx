"use client";

import { useFormStatus } from "react-dom";
import { PlusIcon } from "@/components/ui/icons";
import { createNoteAction } from "@/lib/notes/actions";

function SubmitButton({ label, showShortcut, compact }: { label: string; showShortcut: boolean; compact: boolean }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="btn btn-primary" disabled={pending} aria-keyshortcuts="N" aria-label={compact ? label : undefined}>
      <PlusIcon />
      <span className={compact ? "hide-sm" : undefined}>{pending ? "Creating…" : label}</span>
      {showShortcut ? (
        <kbd className="hide-sm" aria-hidden="true">
          N
        </kbd>
      ) : null}
    </button>
  );
}

/** Creates an empty note and opens it (also on the N key, see KeyboardShortcuts). */
export function NewNoteButton({ label = "New note", showShortcut = true, compact = false }: { label?: string; showShortcut?: boolean; compact?: boolean }) {
  return (
    <form action={createNoteAction}>
      <SubmitButton label={label} showShortcut={showShortcut} compact={compact} />
    </form>
  );
}
