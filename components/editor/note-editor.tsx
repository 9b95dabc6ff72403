"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { NoteBlockEditor } from "@/components/editor/block-editor";
import { ConflictBanner } from "@/components/editor/conflict-banner";
import { applyToEditor, insertAt, mergeTags, useLiveNote, withoutIds } from "@/components/editor/live-merge";
import { MergeConflicts, type ChoiceAction, type MergeChoice } from "@/components/editor/merge-conflicts";
import { HistoryPanel, type RestoreOutcome } from "@/components/editor/history-panel";
import { draftMatches, readDraft, removeDraft, type NoteDraft } from "@/components/editor/note-draft";
import { DraftBanner, SaveFailureAlert } from "@/components/editor/save-failure";
import { SaveStatusIndicator } from "@/components/editor/save-status";
import { TitleField } from "@/components/editor/title-field";
import { useNoteSaver } from "@/components/editor/use-note-saver";
import { useNotesPane } from "@/components/notes/notes-pane";
import { useNewNote, type TypedDraft } from "@/components/shell/new-note";
import { TagPicker } from "@/components/tags/tag-picker";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ArrowLeftIcon, HistoryIcon, PinIcon, TrashIcon } from "@/components/ui/icons";
import { RelativeTime } from "@/components/ui/relative-time";
import { contentToText } from "@/lib/editor/content-text";
import { unreadableBlocks, unshowableBody } from "@/lib/editor/document";
import { mergeBody, propDefaultsOf, selfOf } from "@/lib/editor/merge";
import type { NoteField } from "@/lib/notes/editor-session";
import { NEW_NOTE_PARAM, UNTITLED, type EditorNote } from "@/lib/notes/editor-types";
import { clearLeftNewNoteCookie, leftNewNoteCookie, readLeftNewNote } from "@/lib/notes/left-new-note";
import { deleteNoteAction, discardNewNoteAction, loadNoteAction, restoreRevisionAction } from "@/lib/actions/notes";
import type { TRevisionSummary } from "@/lib/revisions/schemas";
import type { TTag } from "@/lib/tags/schemas";

/** Handle the block editor gives back once it exists. */
export type BlockEditorHandle = {
  editor: NoteBlockEditor;
  /** Replaces the whole body (used to show someone else's version); fires no change. */
  load: (content: unknown, contentText: string) => void;
};

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

const NEW_NOTE_KEY_PREFIX = "notes:new:";

/** Past this many top-level blocks the browser lays out only the blocks near the screen (.long-note in app/globals.css). */
const LONG_NOTE_BLOCKS = 200;

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * True when the stored text is not the text of the stored body: an API client
 * changed contentText without content. Saving the body would replace that text.
 */
function textDiffersFromBody(note: Pick<EditorNote, "content" | "contentText">): boolean {
  // No text to keep (a body written without contentText): the next save writes the body's text, nothing is lost.
  if (!Array.isArray(note.content) || note.content.length === 0 || !normalize(note.contentText)) return false;
  return normalize(contentToText(note.content)) !== normalize(note.contentText);
}

export function NoteEditor({ note, allTags: initialTags, now }: { note: EditorNote; allTags: TTag[]; now: number }) {
  const router = useRouter();
  const { take: takeTyped, owns: draftOwns } = useNewNote();
  const pane = useNotesPane();
  const [title, setTitle] = useState(note.title);
  const [tags, setTags] = useState<TTag[]>(note.tags);
  const [pinned, setPinned] = useState(note.pinned);
  const [allTags, setAllTags] = useState<TTag[]>(initialTags);
  /** Where a write made elsewhere and the person's typing changed the same thing: theirs, for the person to pick. */
  const [choices, setChoices] = useState<MergeChoice[]>([]);
  const [divergentText, setDivergentText] = useState<string | null>(() => (textDiffersFromBody(note) ? note.contentText : null));
  /**
   * Why the body on screen is not the stored body as it is (blocks the editor
   * does not know, shown as their text), or null. The body is read-only then,
   * so no edit saves what is shown over what is stored, until the person
   * chooses to edit it as shown.
   */
  const [unshown, setUnshown] = useState<string | null>(() => unshowableBody(note.content));
  const [editAsShown, setEditAsShown] = useState(false);
  const bodyReadOnly = unshown !== null && !editAsShown;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  /** Why the last pasted, dropped or picked file was not stored. */
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  /** Unsaved changes from an earlier visit, found in this browser and shown in the editor. */
  const [restored, setRestored] = useState<NoteDraft | null>(null);
  const handle = useRef<BlockEditorHandle | null>(null);
  /** The body's editor once it exists (the new note's draft hands over to it then). */
  const [blockEditor, setBlockEditor] = useState<NoteBlockEditor | null>(null);
  /** A restored body waiting for the editor to exist. */
  const pendingBody = useRef<unknown[] | null>(null);
  const titleInput = useRef<HTMLTextAreaElement>(null);
  const loading = useRef(false);
  // Every setTitle/setTags/setPinned below writes here first, so saves read the latest values.
  const state = useRef({ title, tags, pinned });

  /** Set below, once the page's state exists: merges a write made elsewhere into what is on screen. */
  const mergeRef = useRef<(current: EditorNote) => boolean>(() => false);
  const saver = useNoteSaver({
    note,
    onConflict: (current) => mergeRef.current(current),
    snapshot: () => ({
      title: state.current.title,
      content: () => (handle.current?.editor.document ?? []) as unknown[],
      tags: state.current.tags,
      pinned: state.current.pinned,
    }),
    onSaved: () => {
      setRestored(null);
      pane.changed();
    },
  });
  const { flush, acceptRemote, markChanged: markSaverChanged, hasUnsaved, version: savedVersion, base: savedBase, rebase } = saver;

  /**
   * True while this is a note "New note" just made and nothing has been
   * written in it: leaving it then deletes it, so empty notes do not pile up.
   * Kept per tab in sessionStorage, so a reload does not forget it.
   */
  const untouched = useRef(false);
  const newKey = `${NEW_NOTE_KEY_PREFIX}${note.id}`;
  const markChanged = useCallback(
    (field: NoteField, delayMs?: number) => {
      if (untouched.current) {
        untouched.current = false;
        sessionStorage.removeItem(newKey);
      }
      markSaverChanged(field, delayMs);
    },
    [newKey, markSaverChanged],
  );

  /**
   * Still the untouched new note, as this tab knows it. Not once its editor
   * took over from the new note's draft: the draft saves what was typed or
   * deletes it.
   */
  const stillUntouched = useCallback(
    () => !draftOwns(note.id) && untouched.current && !hasUnsaved() && savedVersion() === note.version,
    [draftOwns, note.id, note.version, hasUnsaved, savedVersion],
  );

  /** Deletes the note if it is still the untouched new note (and nobody else wrote to it since: the delete is conditional on its version). */
  const discardIfUntouched = useCallback(async (): Promise<boolean> => {
    if (!stillUntouched()) return false;
    untouched.current = false;
    sessionStorage.removeItem(newKey);
    const result = await discardNewNoteAction({ id: note.id, version: note.version }).catch(() => null);
    if (result?.discarded) removeDraft(note.id);
    return result?.discarded ?? false;
  }, [stillUntouched, newKey, note.id, note.version]);

  /**
   * What was typed in the new note's draft before this editor existed, put
   * here with the caret where it was (at the end of its line in the body),
   * in the same moment the draft goes: the next key lands here.
   */
  const continueTyped = useCallback(
    (editor: NoteBlockEditor, typed: TypedDraft) => {
      const titleField = titleInput.current;
      if (typed.title) {
        state.current = { ...state.current, title: typed.title };
        setTitle(typed.title);
        // The field has it now, not at React's next render, so the caret can go where it was.
        if (titleField) titleField.value = typed.title;
        markChanged("title");
      }
      if (typed.body) {
        handle.current?.load([], typed.body);
        markChanged("content");
      }
      if (typed.focus === "title" || !titleField) {
        titleField?.focus();
        // Nothing typed in the title yet: "Untitled" is selected, to be typed over, as on any new note.
        if (typed.title) titleField?.setSelectionRange(typed.selectionStart, typed.selectionEnd);
        else titleField?.select();
        return;
      }
      const lines = typed.body.slice(0, typed.selectionStart).split("\n");
      const block = editor.document[lines.length - 1] ?? editor.document.at(-1);
      if (block) editor.setTextCursorPosition(block, lines.at(-1) === "" ? "start" : "end");
      editor.focus();
    },
    [markChanged],
  );

  const onReady = useCallback((editor: NoteBlockEditor) => {
    handle.current = {
      editor,
      load: (content, contentText) => {
        const asText = contentText.split("\n").map((line) => ({ type: "paragraph", content: line }));
        loading.current = true;
        try {
          const blocks = Array.isArray(content) && content.length > 0 ? content : asText;
          try {
            editor.replaceBlocks(editor.document, blocks as never);
          } catch (err) {
            // Not editor JSON (written by an API client): show its text, and say so.
            editor.replaceBlocks(editor.document, asText as never);
            setUnshown(unreadableBlocks(err));
          }
        } finally {
          loading.current = false;
        }
      },
    };
    if (pendingBody.current) {
      handle.current.load(pendingBody.current, "");
      pendingBody.current = null;
    }
    setBlockEditor(editor);
  }, []);

  const onBodyChange = useCallback(() => {
    if (!loading.current) markChanged("content");
  }, [markChanged]);

  /** Shows the note as it is on the server now, dropping what is unsaved here. */
  const showNote = useCallback(
    (current: EditorNote) => {
      setUnshown(unshowableBody(current.content));
      setEditAsShown(false);
      handle.current?.load(current.content, current.contentText);
      state.current = { title: current.title, tags: current.tags, pinned: current.pinned };
      setTitle(current.title);
      setTags(current.tags);
      setPinned(current.pinned);
      setChoices([]);
      setDivergentText(textDiffersFromBody(current) ? current.contentText : null);
      acceptRemote(current);
    },
    [acceptRemote],
  );

  // Changes a save never took (refused, or the tab closed first) were kept in
  // this browser: show them again, unsaved, for the person to save or discard.
  useEffect(() => {
    const draft = readDraft(note.id);
    if (!draft) return;
    if (draftMatches(draft, note)) {
      removeDraft(note.id);
      return;
    }
    const restoredTitle = draft.title ?? state.current.title;
    const restoredTags = draft.tags ?? state.current.tags;
    const restoredPinned = draft.pinned ?? state.current.pinned;
    state.current = { title: restoredTitle, tags: restoredTags, pinned: restoredPinned };
    setTitle(restoredTitle);
    setTags(restoredTags);
    setPinned(restoredPinned);
    if (draft.content) {
      if (handle.current) handle.current.load(draft.content, "");
      else pendingBody.current = draft.content;
    }
    setDivergentText(null);
    saver.restoreDraft(draft);
    setRestored(draft);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the note this page opened with
  }, []);

  /** Unsaved changes (restored or refused) are dropped: the note as it is saved now comes back. */
  async function discardUnsaved() {
    const current = await loadNoteAction(note.id).catch(() => null);
    setRestored(null);
    showNote(current ?? note);
  }

  // A note "New note" just made: remembered for this tab, and the marker leaves the address.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.has(NEW_NOTE_PARAM)) {
      sessionStorage.setItem(newKey, "1");
      url.searchParams.delete(NEW_NOTE_PARAM);
      window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    }
    untouched.current = sessionStorage.getItem(newKey) === "1" && !readDraft(note.id);
  }, [newKey, note.id]);

  // Leaving an untouched new note any other way than the Notes button (a link, a shortcut, Back) deletes it too.
  // The check waits a moment: a development remount runs this cleanup and mounts again at once.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.setTimeout(() => {
        if (mounted.current) return;
        void discardIfUntouched().then((deleted) => {
          if (deleted) router.refresh();
        });
      }, 0);
    };
  }, [discardIfUntouched, router]);

  // Left by a full page load (the address bar, closing the tab, a reload), no code of the app runs on the
  // way out: the cookie names the note for the next page this browser loads (lib/notes/left-new-note.ts).
  useEffect(() => {
    const onLeave = () => {
      if (stillUntouched()) document.cookie = leftNewNoteCookie({ id: note.id, version: note.version }, window.location.protocol === "https:");
    };
    // Back again from the browser's page cache: the page in between may have deleted it, so show what is true now.
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted || !stillUntouched()) return;
      if (readLeftNewNote(document.cookie)?.id === note.id) document.cookie = clearLeftNewNoteCookie;
      else window.location.reload();
    };
    window.addEventListener("beforeunload", onLeave);
    window.addEventListener("pagehide", onLeave);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("beforeunload", onLeave);
      window.removeEventListener("pagehide", onLeave);
      window.removeEventListener("pageshow", onShow);
    };
  }, [stillUntouched, note.id, note.version]);

  // A new, empty note starts with its title selected (once: server re-renders pass a new `note` object).
  useEffect(() => {
    const empty = note.title === UNTITLED && !note.contentText.trim() && (!Array.isArray(note.content) || note.content.length === 0);
    // Not while the new note's draft has the focus: it hands it over when this editor is ready.
    if (empty && !draftOwns(note.id)) titleInput.current?.select();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount: server re-renders pass a new `note` object
  }, []);

  // A new note typed into before its editor loaded: what was typed moves here once the body's editor exists.
  // After the effects above (a cached editor is ready before they run), so they never undo the handover.
  useEffect(() => {
    if (!blockEditor) return;
    const typed = takeTyped(note.id);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the typed title comes from the draft, outside React, once
    if (typed) continueTyped(blockEditor, typed);
  }, [blockEditor, continueTyped, note.id, takeTyped]);

  // Beside the list (desktop): the note's row shows the title as it is typed.
  useEffect(() => pane.titled(note.id, title), [note.id, pane, title]);

  // Beside the list (desktop): Enter on this note's row puts the focus in its body, at its start.
  useEffect(() => {
    if (!blockEditor) return;
    pane.opened(note.id, () => {
      const first = blockEditor.document[0];
      if (first) blockEditor.setTextCursorPosition(first, "start");
      blockEditor.focus();
    });
  }, [blockEditor, note.id, pane]);

  // The title wraps: the field grows to show every line (where CSS field-sizing is not supported).
  useLayoutEffect(() => {
    const element = titleInput.current;
    if (!element || CSS.supports("field-sizing", "content")) return;
    const fit = () => {
      element.style.height = "auto";
      element.style.height = `${element.scrollHeight}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [title]);

  // Ctrl/⌘+S saves now instead of opening the browser's save dialog.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void flush();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [flush]);

  /**
   * A write made elsewhere (an agent, another tab), newer than what this page
   * saved, merged into what is on screen block by block (lib/editor/merge.ts):
   * what only they changed appears, what only the person changed stays, and
   * where both changed the same block or the title the person's version stays
   * with theirs offered beside it. False when the two cannot be merged.
   */
  const mergeRemote = useCallback(
    (current: EditorNote): boolean => {
      const editor = handle.current?.editor;
      const base = savedBase();
      // A body shown only as its text, here or in their write: shown afresh instead, never merged into.
      if (!editor || !base || bodyReadOnly || unshowableBody(current.content) !== null) return false;
      const result = mergeBody(base.content, editor.document, current.content, propDefaultsOf(editor.schema.blockSchema));
      if (!result) return false;
      loading.current = true;
      try {
        applyToEditor(editor, result.ops);
      } catch {
        return false;
      } finally {
        loading.current = false;
      }
      const mine = state.current;
      const merged = {
        title: mine.title === base.title ? current.title : mine.title,
        tags: mergeTags(base.tags, mine.tags, current.tags),
        pinned: mine.pinned === base.pinned ? current.pinned : mine.pinned,
      };
      state.current = merged;
      setTitle(merged.title);
      setTags(merged.tags);
      setPinned(merged.pinned);
      setAllTags((known) => [...known, ...current.tags.filter((tag) => !known.some((other) => other.id === tag.id))].sort((a, b) => a.name.localeCompare(b.name)));
      const titleChoice: MergeChoice[] =
        merged.title !== current.title && current.title !== base.title ? [{ key: "title", title: { mine: merged.title, theirs: current.title } }] : [];
      const blockChoices: MergeChoice[] = result.conflicts.map((conflict) => ({ key: `${conflict.kind}:${conflict.id}`, conflict }));
      const fresh = [...titleChoice, ...blockChoices];
      if (fresh.length > 0) setChoices((existing) => [...existing.filter((choice) => !fresh.some((other) => other.key === choice.key)), ...fresh]);
      setDivergentText(null);
      rebase(current);
      return true;
    },
    [savedBase, rebase, bodyReadOnly],
  );
  useLayoutEffect(() => {
    mergeRef.current = mergeRemote;
  }, [mergeRemote]);

  // Writes made elsewhere while the note is open are merged in within seconds; unmergeable ones are shown as they are
  // when nothing here is unsaved, and as a conflict otherwise.
  useLiveNote({
    noteId: note.id,
    version: saver.version,
    busy: saver.saving,
    onNewer: (current) => {
      if (mergeRemote(current)) return;
      if (saver.hasUnsaved()) saver.showConflict(current);
      else showNote(current);
    },
  });

  /** The person's pick for something both changed: theirs replaces, joins or removes; mine just closes it. */
  function pick(choice: MergeChoice, action: ChoiceAction) {
    setChoices((list) => list.filter((other) => other.key !== choice.key));
    if (action === "mine") return;
    if ("title" in choice) {
      state.current = { ...state.current, title: choice.title.theirs };
      setTitle(choice.title.theirs);
      markChanged("title", 0);
      return;
    }
    const editor = handle.current?.editor;
    if (!editor) return;
    const { conflict } = choice;
    // Edits the person asked for: the editor's change event saves them.
    try {
      if (conflict.kind === "theirs_deleted") editor.removeBlocks([conflict.id]);
      else if (conflict.kind === "mine_deleted") conflict.places.some((place) => insertAt(editor, [withoutIds(conflict.theirs)], place));
      else if (action === "theirs") editor.updateBlock(conflict.id, selfOf(conflict.theirs) as never);
      else editor.insertBlocks([withoutIds({ ...conflict.theirs, children: undefined })] as never, conflict.id, "after");
    } catch {
      // The block is gone since (the person deleted it): there is nothing left to pick.
    }
  }

  async function leave(event: React.MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    await flush();
    if (saver.hasUnsaved() && !window.confirm("Your latest changes are not saved yet. Leave anyway?")) return;
    // Deleted before the list loads, so the list never shows it.
    await discardIfUntouched();
    router.push("/notes");
  }

  /**
   * Puts the note back as it was at a revision: what is typed here is saved
   * first (so it is in the history too), then the restore is written on top
   * of that version and shown in the editor, the history staying open to
   * offer its undo.
   */
  async function restoreRevision(revision: TRevisionSummary): Promise<RestoreOutcome> {
    await flush();
    if (saver.hasUnsaved()) return { restored: false, message: "Your latest changes are not saved yet, so nothing was restored. Try again once they are saved." };
    const result = await restoreRevisionAction({ noteId: note.id, revisionId: revision.id, version: saver.version() }).catch(() => null);
    if (!result) return { restored: false, message: "The version could not be restored: check your connection and try again." };
    if (result.ok) {
      untouched.current = false;
      showNote(result.note);
      return { restored: true, version: result.note.version };
    }
    if (result.error === "conflict") {
      // Written elsewhere in between: shown as any other conflict, nothing restored.
      setHistoryOpen(false);
      saver.showConflict(result.current);
      return { restored: false, message: null };
    }
    return { restored: false, message: result.message };
  }

  async function deleteNote() {
    untouched.current = false;
    setDeleting(true);
    setDeleteError(null);
    const version = await saver.stop();
    const result = await deleteNoteAction({ id: note.id, version }).catch(() => null);
    if (result?.ok) {
      removeDraft(note.id);
      // The notes page says where it went, with an Undo.
      router.push(`/notes?trashed=${note.id}`);
      router.refresh();
      return;
    }
    setDeleting(false);
    setConfirmDelete(false);
    saver.resume();
    if (result && result.error === "conflict") {
      saver.showConflict(result.current);
    } else {
      markChanged("content");
      setDeleteError(result ? result.message : "The note could not be deleted: check your connection and try again.");
    }
  }

  return (
    <div className="editor-page">
      <div className="editor-bar">
        <Link href="/notes" className="btn btn-ghost btn-sm" onClick={leave}>
          <ArrowLeftIcon size={15} />
          Notes
        </Link>
        <div className="spacer" />
        <SaveStatusIndicator status={saver.status} failure={saver.failure} />
        {/* A toggle: its name stays "Pin note", aria-pressed says whether it is pinned. */}
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-toggle"
          aria-pressed={pinned}
          title={pinned ? "Pinned: shown first in your notes. Press to unpin." : "Pin: show this note first in your notes"}
          onClick={() => {
            const next = !state.current.pinned;
            state.current = { ...state.current, pinned: next };
            setPinned(next);
            markChanged("pinned", 0);
          }}
        >
          <PinIcon size={15} fill={pinned ? "currentColor" : "none"} />
          Pin<span className="sr-only"> note</span>
        </button>
        {/* Named by aria-label: at phone width the visible words are hidden, the names stay. */}
        <button type="button" className="btn btn-ghost btn-sm" aria-haspopup="dialog" aria-label="History of this note" onClick={() => setHistoryOpen(true)}>
          <HistoryIcon size={15} />
          <span className="hide-sm">History</span>
        </button>
        <button type="button" className="btn btn-ghost btn-sm btn-danger" aria-label="Delete note" onClick={() => setConfirmDelete(true)}>
          <TrashIcon size={15} />
          <span className="hide-sm">Delete</span>
        </button>
      </div>

      {saver.conflict ? (
        <ConflictBanner current={saver.conflict} now={now} onReload={() => showNote(saver.conflict!)} onKeepMine={() => void saver.keepMine()} />
      ) : restored ? (
        <DraftBanner
          draft={restored}
          changedSince={restored.baseVersion !== note.version}
          now={now}
          onSave={() => {
            setRestored(null);
            void saver.retry();
          }}
          onDiscard={() => void discardUnsaved()}
        />
      ) : divergentText !== null ? (
        <div className="banner" role="status">
          <p className="banner-title">This note’s text was changed without its formatted body</p>
          <p>
            An agent or script updated the note’s plain text only. The editor shows the formatted body; your next edit would replace that
            text. Use the text instead to keep its words (as plain paragraphs).
          </p>
          <div className="banner-preview">{divergentText.length > 600 ? `${divergentText.slice(0, 600)}…` : divergentText}</div>
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => {
                handle.current?.load([], divergentText);
                setDivergentText(null);
                markChanged("content", 0);
              }}
            >
              Use the text
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setDivergentText(null)}>
              Keep the formatted body
            </button>
          </div>
        </div>
      ) : null}

      {bodyReadOnly ? (
        <div className="banner" role="status" data-testid="unshown-body">
          <p className="banner-title">Part of this note’s body can’t be shown here as it is stored</p>
          <p>
            An agent or script wrote it in a form the editor doesn’t know ({unshown}), so the editor shows its text and keeps the body
            read-only: nothing you do here changes it. The title, tags and pin still save. To edit the body here, edit it as shown: your next
            save replaces the stored body with what you see, and the note’s history keeps the version before.
          </p>
          <div className="actions">
            <button type="button" className="btn btn-sm" onClick={() => setEditAsShown(true)}>
              Edit the body as shown
            </button>
          </div>
        </div>
      ) : null}

      <MergeConflicts choices={choices} onPick={pick} />

      {saver.failure ? (
        <SaveFailureAlert
          failure={saver.failure}
          draftKept={saver.draftKept}
          signInHref={`/sign-in?next=${encodeURIComponent(`/notes/${note.id}`)}`}
          onRetry={() => void saver.retry()}
          onDiscard={() => void discardUnsaved()}
        />
      ) : null}

      {deleteError ? (
        <p className="alert alert-error" role="alert">
          {deleteError}
        </p>
      ) : null}

      {uploadError ? (
        <div className="alert alert-error" role="alert" data-testid="upload-failure">
          <p>
            <strong>The file was not added.</strong> {uploadError}
          </p>
          <button type="button" className="btn btn-sm" onClick={() => setUploadError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}

      <TitleField
        ref={titleInput}
        id="note-title"
        value={title}
        onChange={(event) => {
          // A title is one line: line breaks pasted into it become spaces.
          const value = event.target.value.replace(/\r?\n/g, " ");
          // The ref first: a save may read it before React renders again.
          state.current = { ...state.current, title: value };
          setTitle(value);
          markChanged("title");
        }}
        onToBody={() => {
          const editor = handle.current?.editor;
          const first = editor?.document[0];
          if (editor && first) {
            editor.setTextCursorPosition(first, "start");
            editor.focus();
          }
        }}
      />
      <div className="note-meta">
        <TagPicker
          selected={tags}
          allTags={allTags}
          onChange={(next) => {
            state.current = { ...state.current, tags: next };
            setTags(next);
            markChanged("tags", 0);
          }}
          onTagCreated={(tag) => setAllTags((current) => [...current, tag].sort((a, b) => a.name.localeCompare(b.name)))}
        />
        <span aria-hidden="true">·</span>
        <span>
          Edited <RelativeTime iso={saver.updatedAt} now={now} />
        </span>
      </div>

      <div className={Array.isArray(note.content) && note.content.length > LONG_NOTE_BLOCKS ? "editor-surface long-note" : "editor-surface"}>
        <BlockEditor
          content={note.content}
          contentText={note.contentText}
          onChange={onBodyChange}
          onReady={onReady}
          onUploadError={setUploadError}
          onUnshown={setUnshown}
          editable={!bodyReadOnly}
          label="Note body"
        />
      </div>

      <HistoryPanel
        noteId={note.id}
        open={historyOpen}
        current={() => ({
          title: state.current.title,
          content: handle.current?.editor.document ?? note.content,
          contentText: note.contentText,
          tagIds: state.current.tags.map((tag) => tag.id),
          pinned: state.current.pinned,
        })}
        onRestore={restoreRevision}
        onClose={() => setHistoryOpen(false)}
      />

      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${title.trim() || UNTITLED}”?`}
        confirmLabel="Delete note"
        busy={deleting}
        onConfirm={() => void deleteNote()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>The note moves to the trash, for you and your agents. You can restore it from the Trash page until it expires.</p>
      </ConfirmDialog>
    </div>
  );
}
