"use client";

import { useFormStatus } from "react-dom";
import { useNewNote } from "@/components/shell/new-note";
import { PlusIcon } from "@/components/ui/icons";
import { createNoteAction } from "@/lib/actions/notes";

function SubmitButton({ label, showShortcut, compact }: { label: string; showShortcut: boolean; compact: boolean }) {
  const { pending: posted } = useFormStatus();
  const { start, opening } = useNewNote();
  const pending = posted || opening;
  return (
    <button
      type="submit"
      className="btn btn-primary"
      disabled={pending}
      aria-keyshortcuts="N"
      aria-label={compact ? label : undefined}
      onClick={(event) => {
        // Once the page runs, the note to type in shows at once (see NewNoteProvider); the form is for before that.
        event.preventDefault();
        start();
      }}
    >
      <PlusIcon />
      <span className={compact ? "hide-sm" : undefined}>{posted ? "Opening…" : label}</span>
      {showShortcut ? (
        // The key is drawn by CSS (kbd[data-key]): the button's name stays its visible words, and aria-keyshortcuts says the key.
        <kbd className="hide-sm" aria-hidden="true" data-key="N" />
      ) : null}
    </button>
  );
}

/** Opens a new, empty note to type in at once (also on the N key, see KeyboardShortcuts). */
export function NewNoteButton({ label = "New note", showShortcut = true, compact = false }: { label?: string; showShortcut?: boolean; compact?: boolean }) {
  return (
    <form action={createNoteAction}>
      <SubmitButton label={label} showShortcut={showShortcut} compact={compact} />
    </form>
  );
}
