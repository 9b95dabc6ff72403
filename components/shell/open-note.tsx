"use client";

import { useCallback } from "react";
import { NoteEditor, type NoteEditorHandle } from "@/components/editor/note-editor";
import { useNotesPane } from "@/components/notes/notes-pane";
import { useNewNote } from "@/components/shell/new-note";
import type { EditorNote } from "@/lib/notes/editor-types";
import type { TTag } from "@/lib/tags/schemas";

/** A note's page: its editor, joined to the list beside it (desktop) and to a new note's first keys. */
export function OpenNote({ note, allTags, now }: { note: EditorNote; allTags: TTag[]; now: number }) {
  const pane = useNotesPane();
  const { take } = useNewNote();
  const onTitleChange = useCallback((title: string) => pane.titled(note.id, title), [pane, note.id]);
  const onReady = useCallback(
    (editor: NoteEditorHandle) => {
      // A new note typed into before its editor loaded: what was typed moves here.
      const typed = take(note.id);
      if (typed) editor.continueTyped(typed);
      // Beside the list: Enter on this note's row puts the focus in its body.
      pane.opened(note.id, editor.focusBody);
    },
    [note.id, pane, take],
  );
  return <NoteEditor note={note} allTags={allTags} now={now} onSaved={pane.changed} onTitleChange={onTitleChange} onReady={onReady} />;
}
