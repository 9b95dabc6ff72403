"use client";

import type { SaveFailure, SaveStatus } from "@/lib/notes/editor-session";

const LABELS: Record<SaveStatus, string> = {
  saved: "Saved",
  saving: "Saving…",
  offline: "Offline, retrying",
  conflict: "Not saved: changed elsewhere",
  error: "Not saved",
};

/**
 * The autosave state, announced politely to screen readers. After a failure it
 * is a button that brings the alert with the reason into view: the bar stays
 * on screen, the alert may be far above after a long paste.
 */
export function SaveStatusIndicator({ status, failure, stored }: { status: SaveStatus; failure: SaveFailure | null; stored: boolean }) {
  // A new note nothing was typed in yet is not stored at all: its first save makes it.
  const label = <span data-testid="save-status">{status === "saved" && !stored ? "New note" : LABELS[status]}</span>;
  return (
    <span role="status" aria-live="polite">
      {status === "error" && failure ? (
        <button
          type="button"
          className="save-status save-status-button"
          data-state={status}
          title={failure.message}
          onClick={() => {
            const alert = document.getElementById("save-failure");
            alert?.scrollIntoView({ block: "center" });
            alert?.focus({ preventScroll: true });
          }}
        >
          <span className="dot" aria-hidden="true" />
          {label}
          <span className="save-status-why">why?</span>
        </button>
      ) : (
        <span className="save-status" data-state={status}>
          <span className="dot" aria-hidden="true" />
          {label}
        </span>
      )}
    </span>
  );
}
