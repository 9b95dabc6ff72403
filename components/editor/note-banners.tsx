"use client";

import { ConflictBanner } from "@/components/editor/conflict-banner";
import { MergeConflicts } from "@/components/editor/merge-conflicts";
import type { NoteSession } from "@/components/editor/note-session";
import { DraftBanner, SaveFailureAlert } from "@/components/editor/save-failure";
import { bodyReadOnly, type EditorSession } from "@/lib/notes/editor-session";

/** What the page says above the note: a conflict, restored changes, a body it cannot show as stored, picks a merge left, failures. */
export function NoteBanners({ state, session, now }: { state: EditorSession; session: NoteSession; now: number }) {
  return (
    <>
      {state.conflict ? (
        <ConflictBanner current={state.conflict} now={now} onReload={session.takeTheirs} onKeepMine={() => void session.keepMine()} />
      ) : state.restored ? (
        <DraftBanner
          savedAt={state.restored.savedAt}
          reason={state.reason}
          changedSince={state.restored.changedSince}
          now={now}
          onSave={() => void session.retry()}
          onDiscard={() => void session.discardUnsaved()}
        />
      ) : state.divergentText !== null ? (
        <DivergentTextBanner text={state.divergentText} onUseText={session.useText} onKeepBody={session.keepBody} />
      ) : null}

      {bodyReadOnly(state) ? (
        <div className="banner" role="status" data-testid="unshown-body">
          <p className="banner-title">Part of this note’s body can’t be shown here as it is stored</p>
          <p>
            An agent or script wrote it in a form the editor doesn’t know ({state.unshown}), so the editor shows its text and keeps the body
            read-only: nothing you do here changes it. The title, tags and pin still save. To edit the body here, edit it as shown: your next
            save replaces the stored body with what you see, and the note’s history keeps the version before.
          </p>
          <div className="actions">
            <button type="button" className="btn btn-sm" onClick={session.editAsShown}>
              Edit the body as shown
            </button>
          </div>
        </div>
      ) : null}

      <MergeConflicts choices={state.choices} onPick={session.pick} />

      {state.failure ? (
        <SaveFailureAlert
          failure={state.failure}
          draftKept={state.draftKept}
          signInHref={`/sign-in?next=${encodeURIComponent(`/notes/${session.noteId}`)}`}
          onRetry={() => void session.retry()}
          onDiscard={() => void session.discardUnsaved()}
        />
      ) : null}

      {state.actionError ? (
        <p className="alert alert-error" role="alert">
          {state.actionError}
        </p>
      ) : null}

      {state.uploadError ? (
        <div className="alert alert-error" role="alert" data-testid="upload-failure">
          <p>
            <strong>The file was not added.</strong> {state.uploadError}
          </p>
          <button type="button" className="btn btn-sm" onClick={() => session.uploadFailed(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}

function DivergentTextBanner({ text, onUseText, onKeepBody }: { text: string; onUseText: () => void; onKeepBody: () => void }) {
  return (
    <div className="banner" role="status">
      <p className="banner-title">This note’s text was changed without its formatted body</p>
      <p>
        An agent or script updated the note’s plain text only. The editor shows the formatted body; your next edit would replace that text.
        Use the text instead to keep its words (as plain paragraphs).
      </p>
      <div className="banner-preview">{text.length > 600 ? `${text.slice(0, 600)}…` : text}</div>
      <div className="actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={onUseText}>
          Use the text
        </button>
        <button type="button" className="btn btn-sm" onClick={onKeepBody}>
          Keep the formatted body
        </button>
      </div>
    </div>
  );
}
