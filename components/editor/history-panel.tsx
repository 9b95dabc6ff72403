"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { XIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import { getRevisionAction, listRevisionsAction } from "@/lib/notes/actions";
import { noteChanges } from "@/lib/revisions/diff";
import type { TRevision, TRevisionAuthor, TRevisionSummary } from "@/lib/revisions/schemas";

/** Who made a change, in words: an agent (and through what), the person, or a script. */
function authorLabel(author: TRevisionAuthor): { label: string; agent: boolean } {
  const name = author.agent ? ` “${author.agent}”` : "";
  if (author.kind === "api") return { label: `Agent${name} · API`, agent: true };
  if (author.kind === "mcp") return { label: `Agent${name} · MCP`, agent: true };
  if (author.kind === "browser") return { label: "You", agent: false };
  return { label: "System", agent: false };
}

type NoteNow = { title: string; content: unknown; contentText: string };

/**
 * The note's history in a modal: every revision with who made it (agents
 * clearly marked) and when; choosing one shows how it differs from the note
 * as it is in the editor now, with one button to restore it.
 */
export function HistoryPanel({
  noteId,
  open,
  current,
  onRestore,
  onClose,
}: {
  noteId: string;
  open: boolean;
  /** The note as the editor has it now, unsaved typing included. */
  current: () => NoteNow;
  /** Restores the revision; resolves with a message when it could not. */
  onRestore: (revision: TRevisionSummary) => Promise<string | null>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [revisions, setRevisions] = useState<TRevisionSummary[]>([]);
  const [nextCursor, setNextCursor] = useState<string | undefined>();
  const [selected, setSelected] = useState<TRevision | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const load = useCallback(
    async (cursor?: string) => {
      const page = await listRevisionsAction({ noteId, cursor }).catch(() => null);
      if (!page || !page.ok) {
        setMessage(page?.message ?? "The history could not be loaded: check your connection and try again.");
        return;
      }
      setRevisions((shown) => (cursor ? [...shown, ...page.revisions] : page.revisions));
      setNextCursor(page.nextCursor);
    },
    [noteId],
  );

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      setNow(Date.now());
      setSelected(null);
      setMessage(null);
      void load();
    }
    if (!open && element.open) element.close();
  }, [open, load]);

  async function choose(revision: TRevisionSummary) {
    setMessage(null);
    const read = await getRevisionAction({ noteId, revisionId: revision.id }).catch(() => null);
    if (!read || !read.ok) setMessage(read?.message ?? "This version could not be loaded: check your connection and try again.");
    else setSelected(read.revision);
  }

  async function restore() {
    if (!selected) return;
    setBusy(true);
    const failure = await onRestore(selected);
    setBusy(false);
    if (failure) setMessage(failure);
  }

  const newest = revisions[0];
  const changes = selected ? noteChanges(selected, current()) : [];
  const unchanged = changes.every((line) => line.kind === "same" || line.kind === "skipped");

  return (
    <dialog
      ref={dialog}
      className="dialog history-dialog"
      aria-labelledby="history-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="history-head">
        <h2 id="history-title">History</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} aria-label="Close history">
          <XIcon size={16} />
        </button>
      </div>
      <div className="history-body">
        <div className="history-versions">
          <ol className="history-list" aria-label="Versions, newest first">
            {revisions.map((revision) => {
              const who = authorLabel(revision.author);
              return (
                <li key={revision.id}>
                  <button
                    type="button"
                    className="history-item"
                    aria-pressed={selected?.id === revision.id}
                    data-author-kind={revision.author.kind}
                    onClick={() => void choose(revision)}
                  >
                    <span className={who.agent ? "author-badge agent" : "author-badge"}>{who.label}</span>
                    <span className="history-when">
                      <RelativeTime iso={revision.updatedAt} now={now} />
                      {revision === newest ? " · current" : ""}
                    </span>
                    <span className="history-title">{revision.title}</span>
                  </button>
                </li>
              );
            })}
          </ol>
          {nextCursor ? (
            <button type="button" className="btn btn-sm" onClick={() => void load(nextCursor)}>
              Show older versions
            </button>
          ) : null}
        </div>
        <section className="history-preview" aria-label="Compared with the note now" aria-live="polite">
          {message ? (
            <p className="alert alert-error" role="alert">
              {message}
            </p>
          ) : null}
          {selected ? (
            <>
              <p className="history-legend">
                {unchanged ? "This version is the same as the note now." : "From this version to the note now: − only in this version, + only in the note now."}
              </p>
              {unchanged ? null : (
                <ul className="change-list">
                  {changes.map((line, index) =>
                    line.kind === "skipped" ? (
                      <li key={index} className="change skipped">
                        {line.count === 1 ? "1 unchanged line" : `${line.count} unchanged lines`}
                      </li>
                    ) : (
                      <li key={index} className={`change ${line.kind}`}>
                        <span aria-hidden="true">{line.kind === "removed" ? "− " : line.kind === "added" ? "+ " : "  "}</span>
                        <span className="sr-only">{line.kind === "removed" ? "Only in this version: " : line.kind === "added" ? "Only in the note now: " : ""}</span>
                        {line.text}
                      </li>
                    ),
                  )}
                </ul>
              )}
              <div className="actions">
                <button type="button" className="btn btn-primary btn-sm" disabled={busy || unchanged} onClick={() => void restore()}>
                  {busy ? "Restoring…" : "Restore this version"}
                </button>
              </div>
            </>
          ) : (
            <p className="history-legend">Choose a version to see how it differs from the note now and restore it.</p>
          )}
        </section>
      </div>
    </dialog>
  );
}
