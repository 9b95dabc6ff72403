"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import type { NoteBlockEditor } from "@/components/editor/block-editor";
import type { RestoreOutcome } from "@/components/editor/history-panel";
import type { ChoiceAction } from "@/components/editor/merge-conflicts";
import { applyToEditor, insertAt, withoutIds } from "@/components/editor/live-merge";
import { readDraft, removeDraft, writeDraft } from "@/components/editor/note-draft";
import { randomUuids } from "@/components/editor/random-ids";
import { typeInto } from "@/components/editor/type-into";
import { contentToText } from "@/lib/body/content-text";
import { NOTE_CONTENT_MAX_BYTES, unreadableBlocks, unshowableBody } from "@/lib/body/document";
import { mergeBody, propDefaultsOf, selfOf } from "@/lib/body/merge";
import {
  anyField,
  bodyReadOnly,
  createEditorSessionStore,
  hasUnsaved,
  initialEditorSession,
  unionFields,
  draftOf,
  paragraphsOf,
  type EditorSessionEvent,
  type Fields,
  type MergeChoice,
  visibleBody,
} from "@/lib/notes/editor-session";
import { contentTooLargeMessage, newEditorNote, type EditorNote, type SaveNoteResult, type TypedDraft } from "@/lib/notes/editor-types";
import { deleteNoteAction, loadNoteAction, restoreRevisionAction, saveNoteAction, type SaveNoteInput } from "@/lib/actions/notes";
import { givenSettings, settingsOf, settingsWhere, type NoteSettings, type SettingKey } from "@/lib/notes/settings";
import type { TRevisionSummary } from "@/lib/revisions/schemas";
import type { TTag } from "@/lib/tags/schemas";

const TYPING_DELAY_MS = 700;

/** What the page around the editor hears of it. */
export type NoteSessionEvents = {
  /** A save was stored (a new note's first one created it). */
  onSaved?: () => void;
};

/**
 * Only a request that never got an answer means the network is the cause: the
 * browser knows it is offline, or fetch itself failed (a TypeError, worded
 * differently by each browser). Anything else came from the server.
 */
function isNetworkFailure(err: unknown): boolean {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return true;
  return err instanceof TypeError && /fetch|network|load failed|connection/i.test(err.message);
}

/** The reason behind an exception from the save request, for the person to read. */
function describeThrown(err: unknown): string {
  const error = err instanceof Error ? err : new Error(String(err));
  if (error.name === "UnrecognizedActionError") {
    return "This page is out of date: the app was updated since you opened it. Reload the page to keep saving; your changes are kept in this browser and are offered again after the reload.";
  }
  const digest = (error as { digest?: unknown }).digest;
  if (typeof digest === "string" && digest) return `The server failed while saving your changes (an error on our side, reference ${digest}).`;
  const said = error.message.trim();
  return said && said !== "An unexpected response was received from the server."
    ? `The server answered with an error instead of saving your changes: “${said.length > 200 ? `${said.slice(0, 200)}…` : said}”.`
    : "The server answered with an error instead of saving your changes.";
}

/** UTF-8 size of a JSON text (each UTF-16 unit is 1 to 3 bytes): encoded only when it could matter. */
function jsonBytes(json: string): number {
  if (json.length * 3 <= NOTE_CONTENT_MAX_BYTES) return json.length;
  return new TextEncoder().encode(json).length;
}


/**
 * One open note in the browser: the session's value (lib/notes/editor-session.ts)
 * and what acts on it. Changes are debounced and sent one save at a time,
 * each conditional on the version last seen: when someone else (an agent
 * through the API, another tab) wrote in between, nothing is overwritten;
 * their write is merged into what is on screen, or saving stops in "conflict"
 * until the person chooses. A new note's first save creates it.
 *
 * Until a change is saved it is also kept in localStorage (note-draft.ts), so
 * a refused save, a closed tab or a crash loses nothing. A lost connection
 * retries with backoff for as long as it takes; a failing server a few times;
 * a save the server refuses is not repeated until the note changes or the
 * person asks. Every method is bound, so React may hold any of them.
 */
export class NoteSession {
  readonly store;
  readonly noteId: string;
  /** One visit to the note in one tab: the history joins a person's saves into one version only within it (see note_revision_record). */
  private readonly sessionId = randomUuids(1)[0]!;
  private editor: NoteBlockEditor | null = null;
  /** True while the page itself puts a body into the editor: that is not the person's change. */
  private loading = false;
  private queue: Promise<void> = Promise.resolve();
  private timer: number | undefined;
  private draftTimer: number | undefined;

  constructor(
    note: EditorNote,
    allTags: TTag[],
    private events: NoteSessionEvents = {},
  ) {
    this.noteId = note.id;
    this.store = createEditorSessionStore(initialEditorSession(note, allTags));
  }

  setEvents(events: NoteSessionEvents) {
    this.events = events;
  }

  private dispatch = (event: EditorSessionEvent) => this.store.dispatch(event);
  private isDirty = () => anyField(this.store.get().dirty);

  /** The body as the person sees it (visibleBody): the editor's document, or the body it is about to open with. */
  private body(): unknown[] {
    return visibleBody(this.store.get(), this.editor ? (this.editor.document as unknown[]) : null);
  }

  /**
   * Writes what is not saved yet to localStorage, synchronously (it must work
   * from pagehide). `contentJson` saves serializing the body twice.
   */
  private keepDraft(fields: Fields, contentJson?: string) {
    window.clearTimeout(this.draftTimer);
    if (!anyField(fields)) return;
    const { content: _content, ...draft } = draftOf(this.store.get(), { ...fields, content: false }, [], new Date().toISOString());
    const json = fields.content ? (contentJson ?? JSON.stringify(this.body())) : undefined;
    this.dispatch({ type: "draft_kept", kept: writeDraft(draft, json) });
  }

  /** Keeps the unsaved changes now, if there are any. */
  private keepUnsaved = () => {
    const { dirty, sending } = this.store.get();
    const fields = sending ? unionFields(dirty, sending) : dirty;
    if (anyField(fields)) this.keepDraft(fields);
  };

  private schedule(delayMs: number) {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.flush(), delayMs);
  }

  /** An answer to the save on its way: the session says whether saving goes on by itself, or waits (the draft keeps the changes then). */
  private answer(event: EditorSessionEvent) {
    const next = this.dispatch(event);
    if (next.status === "error") this.keepUnsaved();
    if (next.again !== null) this.schedule(next.again);
    return next;
  }

  private run = async () => {
    const before = this.store.get();
    if (before.hold || !anyField(before.dirty)) return;
    const sent = before.dirty;
    const { values } = before;
    const content = sent.content ? this.body() : undefined;
    const contentJson = content === undefined ? undefined : JSON.stringify(content);
    this.keepDraft(sent, contentJson);

    const bytes = contentJson === undefined ? 0 : jsonBytes(contentJson);
    if (bytes > NOTE_CONTENT_MAX_BYTES) {
      // Refused here rather than by the server's request limit, whose answer says nothing useful.
      this.dispatch({ type: "save_refused", message: contentTooLargeMessage(bytes) });
      this.keepUnsaved();
      return;
    }

    const input: SaveNoteInput = {
      id: this.noteId,
      version: before.version,
      session: this.sessionId,
      title: sent.title ? values.title : undefined,
      content: content as SaveNoteInput["content"],
      tagIds: sent.tags ? values.tags.map((tag) => tag.id) : undefined,
      ...settingsWhere(values, (key) => sent[key]),
    };
    this.dispatch({ type: "save_started" });
    let result: SaveNoteResult;
    try {
      result = await saveNoteAction(input);
      if (!result || typeof result !== "object") throw new Error("");
    } catch (err) {
      if (isNetworkFailure(err)) {
        // No answer: keep the changes and try again, for as long as it takes.
        this.answer({ type: "save_offline" });
        return;
      }
      result = { ok: false, error: "server", message: describeThrown(err) };
    }
    if (result.ok) {
      const wrote = {
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(content === undefined ? {} : { content }),
        ...(sent.tags ? { tags: values.tags } : {}),
        ...givenSettings(input),
      };
      const next = this.answer({ type: "save_succeeded", version: result.version, updatedAt: result.updatedAt, wrote });
      this.events.onSaved?.();
      if (next.status === "saved") removeDraft(this.noteId);
      return;
    }
    if (result.error === "conflict") {
      // The sent fields are pending again before the merge, which saves on top of their version.
      this.answer({ type: "save_conflicted", current: result.current, merged: this.merge(result.current) });
      return;
    }
    this.answer({ type: "save_failed", error: result.error, message: result.message });
  };

  /**
   * A write made elsewhere (`current`), newer than what this page saved,
   * merged into what is on screen block by block (lib/body/merge.ts): what
   * only they changed appears, what only the person changed stays, and where
   * both changed the same block or the title the person's version stays with
   * theirs offered beside it. False when the two cannot be merged.
   */
  private merge(current: EditorNote): boolean {
    const { editor } = this;
    const state = this.store.get();
    // A body shown only as its text, here or in their write: shown afresh instead, never merged into.
    if (!editor || !state.base || bodyReadOnly(state) || unshowableBody(current.content) !== null) return false;
    const result = mergeBody(state.base.content, editor.document, current.content, propDefaultsOf(editor.schema.blockSchema));
    if (!result) return false;
    try {
      this.load(() => applyToEditor(editor, result.ops));
    } catch {
      return false;
    }
    this.dispatch({ type: "merged", current, conflicts: result.conflicts });
    return true;
  }

  /** Runs a change the page makes to the editor (not the person's typing). */
  private load(change: () => void) {
    this.loading = true;
    try {
      change();
    } finally {
      this.loading = false;
    }
  }

  /** Replaces the whole body in the editor (someone else's version, or text); fires no change. */
  private loadBody(content: unknown, contentText: string) {
    const editor = this.editor;
    if (!editor) return;
    this.load(() => {
      try {
        editor.replaceBlocks(editor.document, (Array.isArray(content) && content.length > 0 ? content : paragraphsOf(contentText)) as never);
      } catch (err) {
        // Not editor JSON (written by an API client): its text, said so.
        editor.replaceBlocks(editor.document, paragraphsOf(contentText) as never);
        this.dispatch({ type: "body_unshown", reason: unreadableBlocks(err) });
      }
    });
  }

  /** Sends what is pending now, after the save on its way (if any). */
  flush = (): Promise<void> => {
    window.clearTimeout(this.timer);
    this.queue = this.queue.then(this.run, this.run);
    return this.queue;
  };

  /** Records a change; typing waits for a pause, picking a tag or pinning saves at once. */
  private changed(event: EditorSessionEvent, delayMs: number) {
    const next = this.dispatch(event);
    if (next.hold) {
      // Not saving now (conflict, signed out…): keep the change in the browser all the same.
      window.clearTimeout(this.draftTimer);
      this.draftTimer = window.setTimeout(this.keepUnsaved, TYPING_DELAY_MS);
      return;
    }
    this.schedule(delayMs);
  }

  /** A title is one line: line breaks pasted into it become spaces. */
  editTitle = (title: string, delayMs = TYPING_DELAY_MS) => this.changed({ type: "edited", values: { title: title.replace(/\r?\n/g, " ") } }, delayMs);
  editTags = (tags: TTag[]) => this.changed({ type: "edited", values: { tags } }, 0);
  setSetting = <K extends SettingKey>(key: K, value: NoteSettings[K]) => this.changed({ type: "edited", values: { [key]: value } }, 0);
  tagCreated = (tag: TTag) => void this.dispatch({ type: "tag_created", tag });
  /** The editor's change event: the person's edit unless the page is loading a body. */
  bodyChanged = () => {
    if (!this.loading) this.changed({ type: "changed", field: "content" }, TYPING_DELAY_MS);
  };

  /** The browser's draft, looked for once as the page opens; the body's editor is made after this. */
  open = () => {
    const draft = readDraft(this.noteId);
    const next = this.dispatch({ type: "opened", draft });
    // Saved after all: nothing to offer again.
    if (draft && !next.restored) removeDraft(this.noteId);
  };

  editorReady = (editor: NoteBlockEditor) => {
    this.editor = editor;
    this.dispatch({ type: "editor_ready" });
  };

  /** The note as it is now (`current`) replaces what is on screen; what was unsaved here is dropped. */
  private show(current: EditorNote) {
    window.clearTimeout(this.timer);
    window.clearTimeout(this.draftTimer);
    this.dispatch({ type: "remote_accepted", current });
    this.loadBody(current.content, current.contentText);
    removeDraft(this.noteId);
  }

  /** Conflict resolved by taking their version. */
  takeTheirs = () => {
    const { conflict } = this.store.get();
    if (conflict) this.show(conflict);
  };

  /** Unsaved changes (restored or refused) are dropped: the note as it is saved now comes back. */
  discardUnsaved = async () => {
    const stored = this.store.get().version > 0;
    const current = stored ? await loadNoteAction(this.noteId).catch(() => undefined) : newEditorNote(this.noteId);
    if (current) this.show(current);
    else {
      // Nothing is dropped until the note as it is saved can be shown instead.
      this.dispatch({
        type: "action_failed",
        message: current === null ? "This note no longer exists: it was deleted, perhaps by one of your agents." : "Your changes were not discarded: the note could not be loaded. Check your connection and try again.",
      });
    }
  };

  /** Conflict resolved by saving what is on screen over the newer version, as an explicit choice. */
  keepMine = () => {
    if (!this.store.get().conflict) return Promise.resolve();
    this.dispatch({ type: "kept_mine" });
    return this.flush();
  };

  /** After a failure the person has dealt with (signed in again, say) or asks to try again: save what is pending. */
  retry = () => {
    this.dispatch({ type: "retried" });
    return this.flush();
  };

  /** A newer version seen by the live check: merged in, shown when nothing here is unsaved, else a conflict. */
  newer = (current: EditorNote) => {
    if (this.merge(current)) return;
    if (hasUnsaved(this.store.get())) {
      window.clearTimeout(this.timer);
      this.dispatch({ type: "conflict_shown", current });
    } else this.show(current);
  };

  pick = (choice: MergeChoice, action: ChoiceAction) => {
    this.dispatch({ type: "choice_closed", key: choice.key });
    if (action === "mine") return;
    if ("title" in choice) {
      this.editTitle(choice.title.theirs, 0);
      return;
    }
    const { editor } = this;
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
  };

  /** The text an API client stored without the body replaces the body, as paragraphs. */
  useText = () => {
    const { divergentText } = this.store.get();
    if (divergentText === null) return;
    this.loadBody([], divergentText);
    this.dispatch({ type: "divergent_settled" });
    this.changed({ type: "changed", field: "content" }, 0);
  };

  keepBody = () => void this.dispatch({ type: "divergent_settled" });
  editAsShown = () => void this.dispatch({ type: "edit_as_shown" });
  bodyUnshown = (reason: string) => void this.dispatch({ type: "body_unshown", reason });
  uploadFailed = (message: string | null) => void this.dispatch({ type: "upload_failed", message });
  openDialog = (dialog: "history" | "delete" | null) => void this.dispatch({ type: "dialog", dialog });

  /**
   * Puts the note back as it was at a revision: what is typed here is saved
   * first (so it is in the history too), then the restore is written on top
   * of that version and shown, the history staying open to offer its undo.
   */
  restoreRevision = async (revision: TRevisionSummary): Promise<RestoreOutcome> => {
    await this.flush();
    if (hasUnsaved(this.store.get())) return { restored: false, message: "Your latest changes are not saved yet, so nothing was restored. Try again once they are saved." };
    const result = await restoreRevisionAction({ noteId: this.noteId, revisionId: revision.id, version: this.store.get().version }).catch(() => null);
    if (!result) return { restored: false, message: "The version could not be restored: check your connection and try again." };
    if (result.ok) {
      this.show(result.note);
      return { restored: true, version: result.note.version };
    }
    if (result.error === "conflict") {
      // Written elsewhere in between: shown as any other conflict, nothing restored.
      this.openDialog(null);
      this.dispatch({ type: "conflict_shown", current: result.current });
      return { restored: false, message: null };
    }
    return { restored: false, message: result.message };
  };

  /** Moves the note to the trash at the version the person saw; true when it went (a new note nothing saved is simply left). */
  deleteNote = async (): Promise<boolean> => {
    window.clearTimeout(this.timer);
    this.dispatch({ type: "delete_started" });
    this.dispatch({ type: "stopped" });
    await this.queue;
    const { version } = this.store.get();
    const result = version === 0 ? ({ ok: true } as const) : await deleteNoteAction({ id: this.noteId, version }).catch(() => null);
    if (result?.ok) {
      removeDraft(this.noteId);
      return true;
    }
    this.dispatch({ type: "resumed" });
    if (result && result.error === "conflict") {
      this.dispatch({ type: "delete_failed", message: null });
      this.dispatch({ type: "conflict_shown", current: result.current });
    } else {
      this.dispatch({ type: "delete_failed", message: result ? result.message : "The note could not be deleted: check your connection and try again." });
      this.changed({ type: "changed", field: "content" }, TYPING_DELAY_MS);
    }
    return false;
  };

  /**
   * What was typed in the new note's draft before this editor existed, typed
   * here again (its Markdown shortcuts make their blocks, as in the editor),
   * with the caret where it was (at the end of its line in the body, when it
   * was moved back): the next key lands here. `titleField` has the title at
   * once, not at React's next render, so the caret can go where it was.
   */
  continueTyped = (typed: TypedDraft, titleField: HTMLTextAreaElement | null) => {
    const { editor } = this;
    if (typed.title) {
      this.editTitle(typed.title);
      if (titleField) titleField.value = typed.title;
    }
    const inBody = typed.focus === "body" && editor !== null;
    if (!inBody) {
      titleField?.focus();
      // Nothing typed in the title yet: "Untitled" is selected, to be typed over, as on any new note.
      if (typed.title) titleField?.setSelectionRange(typed.selectionStart, typed.selectionEnd);
      else titleField?.select();
    }
    if (!editor || (!inBody && !typed.body)) return;
    // Once this moment's mounting is over: React's development mode mounts
    // the editor's view twice, and the view typed into first would be gone.
    queueMicrotask(() => {
      if (typed.body) {
        this.load(() => {
          editor.setTextCursorPosition(editor.document[0]!, "start");
          typeInto(editor, typed.body);
        });
        this.changed({ type: "changed", field: "content" }, TYPING_DELAY_MS);
      }
      if (!inBody) return;
      // Typed to the end, the caret is where the typing left it; moved back, at its line's block.
      if (typed.selectionStart < typed.body.length) {
        const lines = typed.body.slice(0, typed.selectionStart).split("\n");
        const block = editor.document[lines.length - 1] ?? editor.document.at(-1);
        if (block) editor.setTextCursorPosition(block, lines.at(-1) === "" ? "start" : "end");
      }
      editor.focus();
    });
  };

  /** The caret at the start of the body. */
  focusBody = () => {
    const { editor } = this;
    const first = editor?.document[0];
    if (!editor || !first) return;
    editor.setTextCursorPosition(first, "start");
    editor.focus();
  };

  /** The note as the page shows it now, for the history panel to compare a version with. */
  noteNow = () => {
    const content = this.body();
    const { values } = this.store.get();
    return { title: values.title, content, contentText: contentToText(content), tagIds: values.tags.map((tag) => tag.id), ...settingsOf(values) };
  };

  hasUnsaved = () => hasUnsaved(this.store.get());
  /** A save is on its way: its answer, not a read, says what the server has. */
  saving = () => this.store.get().sending !== null;
  version = () => this.store.get().version;

  /**
   * While the page shows the note: leaving keeps unsaved changes in the
   * browser and tries to send them, and warns while something is unsaved.
   * Returns the detach, which, as the page goes, keeps and sends what is
   * pending (navigating inside the app unmounts the editor).
   */
  attach = () => {
    const onHide = () => {
      if (document.visibilityState !== "hidden" || !this.hasUnsaved()) return;
      this.keepUnsaved();
      if (this.isDirty()) void this.flush();
    };
    const onPageHide = () => {
      if (this.hasUnsaved()) this.keepUnsaved();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!this.hasUnsaved()) return;
      this.keepUnsaved();
      void this.flush();
      event.preventDefault();
    };
    const onOnline = () => {
      if (this.isDirty()) void this.flush();
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("online", onOnline);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("online", onOnline);
      window.clearTimeout(this.timer);
      if (this.hasUnsaved()) this.keepUnsaved();
      if (this.isDirty() && !this.store.get().hold) void this.flush();
    };
  };
}

/** The open note's session for as long as the page shows it, and its state to render. */
export function useNoteSession(note: EditorNote, allTags: TTag[], events: NoteSessionEvents) {
  const [session] = useState(() => new NoteSession(note, allTags, events));
  useEffect(() => session.setEvents(events));
  useEffect(() => {
    session.open();
    return session.attach();
  }, [session]);
  const state = useSyncExternalStore(session.store.subscribe, session.store.get, session.store.get);
  return { session, state };
}
