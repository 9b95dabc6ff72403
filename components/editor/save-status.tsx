import type { SaveStatus } from "@/components/editor/use-note-saver";

const LABELS: Record<SaveStatus, string> = {
  saved: "Saved",
  saving: "Saving…",
  offline: "Offline, retrying",
  conflict: "Not saved: changed elsewhere",
  error: "Not saved",
};

/** The autosave state, announced politely to screen readers (an error's text is shown in an alert next to the editor). */
export function SaveStatusIndicator({ status, error }: { status: SaveStatus; error: string | null }) {
  return (
    <span className="save-status" data-state={status} role="status" aria-live="polite" title={status === "error" && error ? error : undefined}>
      <span className="dot" aria-hidden="true" />
      <span data-testid="save-status">{LABELS[status]}</span>
    </span>
  );
}
