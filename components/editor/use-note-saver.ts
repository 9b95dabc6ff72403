"use client";

import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from "react";
import { removeDraft, writeDraft, type NoteDraft } from "@/components/editor/note-draft";
import { randomUuids } from "@/components/editor/random-ids";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/editor/document";
import {
  anyField,
  createEditorSessionStore,
  hasUnsaved as sessionHasUnsaved,
  initialEditorSession,
  unionFields,
  type EditorSessionEvent,
  type Fields,
  type NoteField,
} from "@/lib/notes/editor-session";
import { contentTooLargeMessage, type EditorNote, type SaveNoteResult } from "@/lib/notes/editor-types";
import { saveNoteAction, type SaveNoteInput } from "@/lib/actions/notes";
import type { TTag } from "@/lib/tags/schemas";

/**
 * A new editor session's id, a version 4 UUID: one visit to the note in one
 * tab. The history joins a person's saves into one version only within a
 * session (see note_revision_record), so leaving the note and coming back
 * starts a new version.
 */
const newEditorSession = (): string => randomUuids(1)[0]!;

const TYPING_DELAY_MS = 700;

type NoteSnapshot = { title: string; content: () => unknown[]; tags: TTag[]; pinned: boolean };

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

/** What the saver calls back into the page with; the page passes the latest on every render. */
type SaverCallbacks = {
  /** What is on screen now; content is read lazily since serializing a long document is not free. */
  snapshot: () => NoteSnapshot;
  onSaved?: (result: { tags: TTag[] }) => void;
  /**
   * A save found the note written elsewhere (`current`): true when that write
   * was merged into what is on screen (and `rebase` called), so saving goes on
   * from it; false stops saving in "conflict" for the person to decide.
   */
  onConflict?: (current: EditorNote) => boolean;
};

/**
 * Autosave for one open note. Changes are debounced and sent one save at a
 * time, each conditional on the version the editor last saw: when someone
 * else (an agent through the API, another tab) wrote in between, nothing is
 * overwritten; the page merges their write or the save stops in "conflict"
 * until the person chooses.
 *
 * Until a change is saved it is also kept in localStorage (see note-draft.ts),
 * so a refused save, a closed tab or a crash loses nothing. A lost connection
 * retries with backoff for as long as it takes; a failing server a few times;
 * a save the server refuses is not repeated until the note changes or the
 * person asks.
 *
 * What is pending, saving or held, and why, is one value (lib/notes/editor-session.ts);
 * this object sends the saves, runs the timers and keeps the draft, as that
 * value says. It lives as long as the page shows the note: every method is
 * bound, so React may hold any of them; useNoteSaver subscribes to the value.
 */
class NoteSaver {
  readonly store;
  private readonly noteId: string;
  private readonly sessionId = newEditorSession();
  private queue: Promise<void> = Promise.resolve();
  private timer: number | undefined;
  private draftTimer: number | undefined;

  constructor(
    note: EditorNote,
    private callbacks: SaverCallbacks,
  ) {
    this.noteId = note.id;
    this.store = createEditorSessionStore(initialEditorSession(note));
  }

  setCallbacks(callbacks: SaverCallbacks) {
    this.callbacks = callbacks;
  }

  private dispatch = (event: EditorSessionEvent) => this.store.dispatch(event);
  private isDirty = () => anyField(this.store.get().dirty);

  /**
   * Writes what is not saved yet to localStorage, synchronously (it must work
   * from pagehide). `contentJson` saves serializing the body twice.
   */
  private keepDraft(fields: Fields, now: NoteSnapshot = this.callbacks.snapshot(), contentJson?: string) {
    window.clearTimeout(this.draftTimer);
    if (!anyField(fields)) return;
    const { version, reason } = this.store.get();
    const draft: Omit<NoteDraft, "content"> = {
      noteId: this.noteId,
      baseVersion: version,
      title: fields.title ? now.title : undefined,
      tags: fields.tags ? now.tags : undefined,
      pinned: fields.pinned ? now.pinned : undefined,
      savedAt: new Date().toISOString(),
      reason,
    };
    const json = fields.content ? (contentJson ?? JSON.stringify(now.content())) : undefined;
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
    const now = this.callbacks.snapshot();
    const content = sent.content ? now.content() : undefined;
    const contentJson = content === undefined ? undefined : JSON.stringify(content);
    this.keepDraft(sent, now, contentJson);

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
      title: sent.title ? now.title : undefined,
      content: content as SaveNoteInput["content"],
      tagIds: sent.tags ? now.tags.map((tag) => tag.id) : undefined,
      pinned: sent.pinned ? now.pinned : undefined,
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
        ...(sent.tags ? { tags: now.tags } : {}),
        ...(input.pinned === undefined ? {} : { pinned: input.pinned }),
      };
      const next = this.answer({ type: "save_succeeded", version: result.version, updatedAt: result.updatedAt, wrote });
      this.callbacks.onSaved?.({ tags: result.tags });
      if (next.status === "saved") removeDraft(this.noteId);
      return;
    }
    if (result.error === "conflict") {
      // The sent fields are pending again before the merge, which saves on top of their version.
      const merged = this.callbacks.onConflict?.(result.current) ?? false;
      this.answer({ type: "save_conflicted", current: result.current, merged });
      return;
    }
    this.answer({ type: "save_failed", error: result.error, message: result.message });
  };

  /** Sends what is pending now, after the save on its way (if any). */
  flush = (): Promise<void> => {
    window.clearTimeout(this.timer);
    this.queue = this.queue.then(this.run, this.run);
    return this.queue;
  };

  /** Records a change; typing waits for a pause, picking a tag or pinning saves at once. */
  markChanged = (field: NoteField, delayMs = TYPING_DELAY_MS) => {
    const next = this.dispatch({ type: "changed", field });
    if (next.hold) {
      // Not saving now (conflict, signed out…): keep the change in the browser all the same.
      window.clearTimeout(this.draftTimer);
      this.draftTimer = window.setTimeout(this.keepUnsaved, TYPING_DELAY_MS);
      return;
    }
    this.schedule(delayMs);
  };

  /** A write made elsewhere (`current`) was merged into what is on screen: saves are now conditional on it. */
  rebase = (current: EditorNote) => void this.dispatch({ type: "rebased", current });

  /** Conflict resolved by taking the note as it is now (or unsaved changes discarded); the caller shows `current`. */
  acceptRemote = (current: EditorNote) => {
    window.clearTimeout(this.timer);
    window.clearTimeout(this.draftTimer);
    this.dispatch({ type: "remote_accepted", current });
    removeDraft(this.noteId);
  };

  /** Conflict resolved by saving what is on screen over the newer version, as an explicit choice. */
  keepMine = () => {
    if (!this.store.get().conflict) return Promise.resolve();
    this.dispatch({ type: "kept_mine" });
    return this.flush();
  };

  /** Stops saving (the note is being deleted) and waits for a save already on its way; the version it ends on. */
  stop = async (): Promise<number> => {
    window.clearTimeout(this.timer);
    this.dispatch({ type: "stopped" });
    await this.queue;
    return this.store.get().version;
  };

  resume = () => void this.dispatch({ type: "resumed" });

  /** After a failure the person has dealt with (signed in again, say) or asks to try again: save what is pending. */
  retry = () => {
    this.dispatch({ type: "retried" });
    return this.flush();
  };

  /**
   * Unsaved changes found in this browser after a reload, already shown on the
   * page: they wait (status "Not saved") until the person saves, edits or
   * discards them. Saving is conditional on the version they were made on.
   */
  restoreDraft = (draft: NoteDraft) => {
    window.clearTimeout(this.timer);
    this.dispatch({
      type: "draft_restored",
      baseVersion: draft.baseVersion,
      fields: { title: draft.title !== undefined, content: draft.content !== undefined, tags: draft.tags !== undefined, pinned: draft.pinned !== undefined },
      reason: draft.reason,
    });
  };

  showConflict = (current: EditorNote) => {
    window.clearTimeout(this.timer);
    this.dispatch({ type: "conflict_shown", current });
  };

  hasUnsaved = () => sessionHasUnsaved(this.store.get());
  /** A save is on its way: its answer, not a read, says what the server has. */
  saving = () => this.store.get().sending !== null;
  version = () => this.store.get().version;
  base = () => this.store.get().base;

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

/** The note's saver for as long as the page shows it, and its session's state to render. */
export function useNoteSaver({ note, snapshot, onSaved, onConflict }: { note: EditorNote } & SaverCallbacks) {
  const [saver] = useState(() => new NoteSaver(note, { snapshot, onSaved, onConflict }));
  // The latest callbacks for saves that timers and events start after this render.
  useLayoutEffect(() => saver.setCallbacks({ snapshot, onSaved, onConflict }));
  useEffect(() => saver.attach(), [saver]);
  const session = useSyncExternalStore(saver.store.subscribe, saver.store.get, saver.store.get);
  return {
    status: session.status,
    failure: session.failure,
    draftKept: session.draftKept,
    conflict: session.conflict,
    updatedAt: session.updatedAt,
    retry: saver.retry,
    version: saver.version,
    base: saver.base,
    rebase: saver.rebase,
    saving: saver.saving,
    markChanged: saver.markChanged,
    flush: saver.flush,
    acceptRemote: saver.acceptRemote,
    keepMine: saver.keepMine,
    showConflict: saver.showConflict,
    restoreDraft: saver.restoreDraft,
    stop: saver.stop,
    resume: saver.resume,
    hasUnsaved: saver.hasUnsaved,
  };
}
