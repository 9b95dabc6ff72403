"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type { NoteBlockEditor } from "@/components/editor/block-editor";
import { EditorBar } from "@/components/editor/editor-bar";
import { HistoryPanel } from "@/components/editor/history-panel";
import { useLiveNote } from "@/components/editor/live-merge";
import { NoteBanners } from "@/components/editor/note-banners";
import { useNoteSession, type NoteSession } from "@/components/editor/note-session";
import { TitleField } from "@/components/editor/title-field";
import { TagPicker } from "@/components/tags/tag-picker";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { bodyReadOnly, type EditorSession } from "@/lib/notes/editor-session";
import { NEW_NOTE_PARAM, UNTITLED, type EditorNote, type TypedDraft } from "@/lib/notes/editor-types";
import type { TTag } from "@/lib/tags/schemas";

function EditorSkeleton() {
  return (
    <div className="editor-skeleton" aria-busy="true" aria-label="Loading editor">
      <div className="skeleton" style={{ height: 18, width: "72%" }} />
      <div className="skeleton" style={{ height: 18, width: "88%" }} />
      <div className="skeleton" style={{ height: 18, width: "54%" }} />
    </div>
  );
}

const BlockEditor = dynamic(() => import("@/components/editor/block-editor"), { ssr: false, loading: EditorSkeleton });

/** Past this many top-level blocks the browser lays out only the blocks near the screen (.long-note in app/globals.css). */
const LONG_NOTE_BLOCKS = 200;

/** What the editor offers the page around it once its body's editor exists. */
export type NoteEditorHandle = {
  /** The caret at the start of the body. */
  focusBody: () => void;
  /** What was typed into a new note before this editor existed goes on here, the caret where it was. */
  continueTyped: (typed: TypedDraft) => void;
};

type NoteEditorProps = {
  note: EditorNote;
  allTags: TTag[];
  now: number;
  /** A save was stored. */
  onSaved?: () => void;
  /** The title as the person types it. */
  onTitleChange?: (title: string) => void;
  /** The body's editor exists. */
  onReady?: (handle: NoteEditorHandle) => void;
};

/**
 * One note, open: its title, tags, pin and body, saved as the person types
 * (components/editor/note-session.ts). The page around it hears of saves, the
 * title and readiness through its props.
 */
export function NoteEditor({ note, allTags, now, onSaved, onTitleChange, onReady }: NoteEditorProps) {
  const router = useRouter();
  const { session, state } = useNoteSession(note, allTags, { onSaved });
  const titleInput = useRef<HTMLTextAreaElement>(null);
  const onReadyRef = useRef(onReady);
  useLayoutEffect(() => {
    onReadyRef.current = onReady;
  });

  const ready = useCallback(
    (editor: NoteBlockEditor) => {
      session.editorReady(editor);
      onReadyRef.current?.({ focusBody: session.focusBody, continueTyped: (typed) => session.continueTyped(typed, titleInput.current) });
    },
    [session],
  );

  useLiveNote({ noteId: note.id, version: session.version, busy: session.saving, onNewer: session.newer });
  useSaveKey(session);
  useEffect(() => onTitleChange?.(state.values.title), [onTitleChange, state.values.title]);

  // A new note's address says it is new until its first save creates it: from then on a reload opens it as stored.
  const stored = state.version > 0;
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!stored || !url.searchParams.has(NEW_NOTE_PARAM)) return;
    url.searchParams.delete(NEW_NOTE_PARAM);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }, [stored]);

  // A new note opened with nothing typed into it elsewhere starts with its title selected, to be typed over.
  useEffect(() => {
    if (note.version === 0 && (document.activeElement === null || document.activeElement === document.body)) titleInput.current?.select();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount: server re-renders pass a new `note` object
  }, []);

  async function deleteNote() {
    if (!(await session.deleteNote())) return;
    // The notes page says where a stored note went, with an Undo.
    router.push(state.version === 0 ? "/notes" : `/notes?trashed=${note.id}`);
    router.refresh();
  }

  return (
    <div className="editor-page">
      <EditorBar state={state} session={session} />
      <NoteBanners state={state} session={session} now={now} />
      <TitleField
        ref={titleInput}
        id="note-title"
        value={state.values.title}
        onChange={(event) => session.editTitle(event.target.value)}
        onToBody={session.focusBody}
      />
      <NoteMeta state={state} session={session} now={now} />
      {/* Made once the browser's draft was looked for, so it opens with a restored body rather than having one put in later. */}
      {state.opened ? (
        <div className={Array.isArray(note.content) && note.content.length > LONG_NOTE_BLOCKS ? "editor-surface long-note" : "editor-surface"}>
          <BlockEditor
            content={state.body.in === "page" ? state.body.content : note.content}
            contentText={state.body.in === "page" ? state.body.contentText : note.contentText}
            onChange={session.bodyChanged}
            onReady={ready}
            onUploadError={session.uploadFailed}
            onUnshown={session.bodyUnshown}
            editable={!bodyReadOnly(state)}
            label="Note body"
          />
        </div>
      ) : (
        <EditorSkeleton />
      )}
      <HistoryPanel
        noteId={note.id}
        open={state.dialog === "history"}
        current={session.noteNow}
        onRestore={session.restoreRevision}
        onClose={() => session.openDialog(null)}
      />
      <ConfirmDialog
        open={state.dialog === "delete"}
        title={`Delete “${state.values.title.trim() || UNTITLED}”?`}
        confirmLabel="Delete note"
        busy={state.deleting}
        onConfirm={() => void deleteNote()}
        onCancel={() => session.openDialog(null)}
      >
        <p>
          {state.version > 0
            ? "The note moves to the trash, for you and your agents. You can restore it from the Trash page until it expires."
            : "Nothing of this new note is stored yet: what is on this page is discarded."}
        </p>
      </ConfirmDialog>
    </div>
  );
}

function NoteMeta({ state, session, now }: { state: EditorSession; session: NoteSession; now: number }) {
  return (
    <div className="note-meta">
      <TagPicker selected={state.values.tags} allTags={state.knownTags} onChange={session.editTags} onTagCreated={session.tagCreated} />
      <span aria-hidden="true">·</span>
      <span>{state.version > 0 ? <>Edited <RelativeTime iso={state.updatedAt} now={now} /></> : "Not saved yet"}</span>
    </div>
  );
}

/** Ctrl/⌘+S saves now instead of opening the browser's save dialog. */
function useSaveKey(session: NoteSession) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void session.flush();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [session]);
}
