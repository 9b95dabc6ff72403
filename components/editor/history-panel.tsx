"use client";

import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { XIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import { getRevisionAction, listRevisionsAction } from "@/lib/actions/notes";
import { settingDifferences, type NoteSettings } from "@/lib/notes/settings";
import { describeRestore, describeRevisionChange, formattingDiffers, noteChanges } from "@/lib/revisions/diff";
import { historyPanelReducer, initialHistoryPanel } from "@/lib/revisions/history-panel";
import type { RevisionChangeInfo } from "@/lib/revisions/queries";
import type { TRevisionAuthor, TRevisionSummary } from "@/lib/revisions/schemas";

/** Who made a change, in words: an agent (and through what), the person, or a script. */
function authorLabel(author: TRevisionAuthor): { label: string; agent: boolean } {
  const name = author.agent ? ` “${author.agent}”` : "";
  if (author.kind === "api") return { label: `Agent${name} · API`, agent: true };
  if (author.kind === "mcp") return { label: `Agent${name} · MCP`, agent: true };
  if (author.kind === "browser") return { label: "You", agent: false };
  return { label: "System", agent: false };
}

/** A version's time as the person's clock shows it: the time alone today, the day too before. */
function versionTime(iso: string): string {
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  return new Intl.DateTimeFormat(undefined, today ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(at);
}

/** What a version changed, in a few words ("Title changed · 2 lines added", "Restored your version from 14:05"). */
function changeLabel(revision: TRevisionSummary, info: RevisionChangeInfo | undefined): string {
  if (info?.restoredFrom) return describeRevisionChange(info.change, { at: versionTime(info.restoredFrom.at), authorKind: info.restoredFrom.authorKind });
  if (revision.restoredFrom !== undefined) return `Restored version ${revision.restoredFrom}`;
  return info ? describeRevisionChange(info.change) : "";
}

export type NoteNow = { title: string; content: unknown; contentText: string; tagIds: string[] } & NoteSettings;
export type RestoreOutcome = { restored: true; version: number } | { restored: false; message: string | null };

/**
 * The note's history in a modal: every version with who made it (agents
 * clearly marked), when, and what it changed since the one before; choosing
 * one shows how it differs from the note as it is in the editor now, with one
 * button to restore it, and after a restore, one to undo it. Its state is
 * historyPanelReducer's; this component runs the requests and renders.
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
  /** Restores the revision: the note's new version, or why it could not (null: the editor showed why). */
  onRestore: (revision: TRevisionSummary) => Promise<RestoreOutcome>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, dispatch] = useReducer(historyPanelReducer, initialHistoryPanel);
  const { revisions, changes, nextCursor, selected, choosing, message, restore: restored, busy } = state;
  const [now, setNow] = useState(() => Date.now());

  const load = useCallback(
    async (cursor?: string) => {
      const page = await listRevisionsAction({ noteId, cursor }).catch(() => null);
      if (!page || !page.ok) {
        dispatch({ type: "load_failed", message: page?.message ?? "The history could not be loaded: check your connection and try again." });
        return;
      }
      setNow(Date.now());
      dispatch({ type: "page_loaded", revisions: page.revisions, changes: page.changes, nextCursor: page.nextCursor, append: cursor !== undefined });
    },
    [noteId],
  );

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      dispatch({ type: "opened" });
      void load();
    }
    if (!open && element.open) element.close();
  }, [open, load]);

  async function choose(revision: TRevisionSummary) {
    dispatch({ type: "choosing", revisionId: revision.id });
    const read = await getRevisionAction({ noteId, revisionId: revision.id }).catch(() => null);
    if (!read || !read.ok) {
      dispatch({ type: "choice_failed", revisionId: revision.id, message: read?.message ?? "This version could not be loaded: check your connection and try again." });
    } else dispatch({ type: "chosen", revision: read.revision });
  }

  /** Restores `target`; `undoing` when it is the version before a restore made here. */
  async function restore(target: TRevisionSummary, undoing: boolean) {
    dispatch({ type: "restore_started" });
    const outcome = await onRestore(target);
    if (!outcome.restored) {
      dispatch({ type: "restore_failed", message: outcome.message });
      return;
    }
    const label = undoing ? "Restore undone: the note is as it was before it." : `${describeRestore({ at: versionTime(target.updatedAt), authorKind: target.author.kind })}.`;
    dispatch({ type: "restored", version: outcome.version, label, undoing });
    await load();
  }

  const newest = revisions?.[0];
  const noteNow = selected ? current() : null;
  const lines = selected && noteNow ? noteChanges(selected, noteNow) : [];
  const textSame = lines.every((line) => line.kind === "same" || line.kind === "skipped");
  const otherDifferences: string[] = [];
  if (selected && noteNow && textSame && formattingDiffers(selected, noteNow)) {
    otherDifferences.push("Only the formatting differs from the note now (colours, styles, alignment, empty lines).");
  }
  if (selected && noteNow && [...selected.tags.map((tag) => tag.id)].sort().join() !== [...noteNow.tagIds].sort().join()) {
    otherDifferences.push(selected.tags.length === 0 ? "This version has no tags." : `This version’s tags: ${selected.tags.map((tag) => tag.name).join(", ")}.`);
  }
  if (selected && noteNow) otherDifferences.push(...settingDifferences(selected, noteNow));
  const unchanged = textSame && otherDifferences.length === 0;

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
        <div className="history-versions" aria-busy={revisions === null}>
          {revisions === null ? (
            <p className="history-loading" role="status">
              Loading versions…
            </p>
          ) : null}
          <ol className="history-list" aria-label="Versions, newest first">
            {(revisions ?? []).map((revision) => {
              const who = authorLabel(revision.author);
              const summary = changeLabel(revision, changes[revision.id]);
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
                    {summary ? <span className="history-summary">{summary}</span> : null}
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
          {restored ? (
            <div className="history-notice" role="status">
              <p>{restored.label}</p>
              {restored.undo ? (
                <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void restore(restored.undo!, true)}>
                  {busy ? "Undoing…" : "Undo"}
                </button>
              ) : null}
            </div>
          ) : null}
          {choosing ? (
            <p className="history-legend history-loading" role="status">
              Loading this version…
            </p>
          ) : selected ? (
            <>
              <p className="history-legend">
                {unchanged
                  ? "This version is the same as the note now."
                  : textSame
                    ? "The text of this version is the same as the note now."
                    : "From this version to the note now: − only in this version, + only in the note now."}
              </p>
              {textSame ? null : (
                <ul className="change-list">
                  {lines.map((line, index) =>
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
              {otherDifferences.map((difference) => (
                <p key={difference} className="history-difference">
                  {difference}
                </p>
              ))}
              <div className="actions">
                <button type="button" className="btn btn-primary btn-sm" disabled={busy || unchanged} onClick={() => void restore(selected, false)}>
                  {busy ? "Restoring…" : "Restore this version"}
                </button>
              </div>
            </>
          ) : restored ? null : (
            <p className="history-legend">Choose a version to see how it differs from the note now and restore it.</p>
          )}
        </section>
      </div>
    </dialog>
  );
}
