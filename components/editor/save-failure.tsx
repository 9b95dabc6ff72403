import { ChoiceBanner } from "@/components/editor/choice-banner";
import type { SaveFailure } from "@/lib/notes/editor-session";
import { RelativeTime } from "@/components/ui/relative-time";

const HEADINGS: Record<SaveFailure["kind"], string> = {
  refused: "Your changes could not be saved",
  server: "Your changes are not saved yet",
  signed_out: "Your changes are not saved: you were signed out",
  not_found: "Your changes cannot be saved: the note is gone",
};

/**
 * Why the latest changes are not saved, and that they are not lost: shown
 * until a save succeeds. The reason is the server's (or the browser's own
 * size check), never a guess.
 */
export function SaveFailureAlert({
  failure,
  draftKept,
  signInHref,
  onRetry,
  onDiscard,
}: {
  failure: SaveFailure;
  draftKept: boolean;
  signInHref: string;
  onRetry: () => void;
  /** Drops the unsaved changes and shows the note as saved. */
  onDiscard: () => void;
}) {
  return (
    <section id="save-failure" tabIndex={-1} className="alert alert-error save-failure" role="alert" aria-labelledby="save-failure-title">
      <p className="save-failure-title" id="save-failure-title">
        {HEADINGS[failure.kind]}
      </p>
      <p data-testid="save-failure-reason">{failure.message}</p>
      <p>
        {draftKept
          ? "Your text stays here and is kept in this browser until it is saved, even if you close or reload the page."
          : "This browser would not keep a copy (its storage is full or turned off): copy your text somewhere safe before you leave this page."}
        {failure.retrying ? " Trying again in a few seconds." : null}
      </p>
      {failure.kind === "not_found" ? null : (
        <div className="actions">
          {failure.kind === "signed_out" ? (
            <a className="btn btn-primary btn-sm" href={signInHref} target="_blank" rel="noopener">
              Sign in in a new tab
            </a>
          ) : null}
          <button type="button" className="btn btn-sm" onClick={onRetry}>
            Try again
          </button>
          {failure.kind === "refused" || failure.kind === "server" ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onDiscard}>
              Discard my changes
            </button>
          ) : null}
        </div>
      )}
    </section>
  );
}

/** Unsaved changes from an earlier visit, restored from this browser into the editor. */
export function DraftBanner({
  savedAt,
  reason,
  changedSince,
  now,
  onSave,
  onDiscard,
}: {
  /** When the changes were kept in this browser. */
  savedAt: string;
  /** Why they were not saved, if a save was refused. */
  reason: string | undefined;
  /** The note was saved elsewhere after these changes were made. */
  changedSince: boolean;
  now: number;
  onSave: () => void;
  onDiscard: () => void;
}) {
  return (
    <ChoiceBanner
      titleId="draft-title"
      title="Unsaved changes restored"
      className="banner banner-draft"
      primary={{ label: "Save these changes", onClick: onSave }}
      secondary={{ label: "Discard them", onClick: onDiscard }}
      consequences="“Discard them” shows the note as it was last saved and removes these changes from this browser."
    >
      <p>
        Changes you made <RelativeTime iso={savedAt} now={now} /> were never saved, so this browser kept them. They are shown below, still
        unsaved.
      </p>
      {reason ? (
        <p>
          Reason: <span data-testid="draft-reason">{reason}</span>
        </p>
      ) : null}
      {changedSince ? <p>The note was changed elsewhere since then: saving asks you which version to keep.</p> : null}
    </ChoiceBanner>
  );
}
