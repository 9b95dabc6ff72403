"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { NoteSession } from "@/components/editor/note-session";
import { SaveStatusIndicator } from "@/components/editor/save-status";
import { ArrowLeftIcon, HistoryIcon, PinIcon, TrashIcon } from "@/components/ui/icons";
import type { EditorSession } from "@/lib/notes/editor-session";

/** The bar above a note: back to the notes (saving first), the save status, pin, history and delete. */
export function EditorBar({ state, session }: { state: EditorSession; session: NoteSession }) {
  const router = useRouter();
  const { pinned } = state.values;

  async function leave(event: React.MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    await session.flush();
    if (session.hasUnsaved() && !window.confirm("Your latest changes are not saved yet. Leave anyway?")) return;
    router.push("/notes");
  }

  return (
    <div className="editor-bar">
      <Link href="/notes" className="btn btn-ghost btn-sm" onClick={leave}>
        <ArrowLeftIcon size={15} />
        Notes
      </Link>
      <div className="spacer" />
      <SaveStatusIndicator status={state.status} failure={state.failure} stored={state.version > 0} />
      {/* A toggle: its name stays "Pin note", aria-pressed says whether it is pinned. */}
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-toggle"
        aria-pressed={pinned}
        title={pinned ? "Pinned: shown first in your notes. Press to unpin." : "Pin: show this note first in your notes"}
        onClick={() => session.setSetting("pinned", !pinned)}
      >
        <PinIcon size={15} fill={pinned ? "currentColor" : "none"} />
        Pin<span className="sr-only"> note</span>
      </button>
      {/* Named by aria-label: at phone width the visible words are hidden, the names stay. */}
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-haspopup="dialog"
        aria-label="History of this note"
        // A new note has no history until its first save.
        disabled={state.version === 0}
        onClick={() => session.openDialog("history")}
      >
        <HistoryIcon size={15} />
        <span className="hide-sm">History</span>
      </button>
      <button type="button" className="btn btn-ghost btn-sm btn-danger" aria-label="Delete note" onClick={() => session.openDialog("delete")}>
        <TrashIcon size={15} />
        <span className="hide-sm">Delete</span>
      </button>
    </div>
  );
}
