"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
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

/**
 * Autosave for one open note. Changes are debounced and sent one save at a
 * time, each conditional on the version the editor last saw: when someone
 * else (an agent through the API, another tab) wrote in between, nothing is
 * overwritten and the save stops in "conflict" until the person chooses to
 * reload theirs or keep their own.
 *
 * Until a change is saved it is also kept in localStorage (see note-draft.ts),
 * so a refused save, a closed tab or a crash loses nothing. A lost connection
 * retries with backoff for as long as it takes; a failing server a few times;
 * a save the server refuses is not repeated until the note changes or the
 * person asks.
 *
 * What is pending, saving or held, and why, is one value (lib/notes/editor-session.ts);
 * this hook sends the saves, runs the timers and keeps the draft, as it says.
 */
export function useNoteSaver({
  note,
  snapshot,
  onSaved,
  onConflict,
}: {
  /** The note as the page loaded it. */
  note: EditorNote;
  /** What is on screen now; content is read lazily since serializing a long document is not free. */
  snapshot: () => NoteSnapshot;
  onSaved?: (result: { tags: TTag[] }) => void;
  /**
   * A save found the note written elsewhere (`current`): true when that write
   * was merged into what is on screen (and `rebase` called), so saving goes on
   * from it; false stops saving in "conflict" for the person to decide.
   */
  onConflict?: (current: EditorNote) => boolean;
}) {
  const { id: noteId } = note;
  const [store] = useState(() => createEditorSessionStore(initialEditorSession(note)));
  const session = useSyncExternalStore(store.subscribe, store.get, store.get);
  const dispatch = (event: EditorSessionEvent) => store.dispatch(event);

  const [sessionId] = useState(newEditorSession);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const timer = useRef<number | undefined>(undefined);
  const draftTimer = useRef<number | undefined>(undefined);
  const snapshotRef = useRef(snapshot);
  const onSavedRef = useRef(onSaved);
  const onConflictRef = useRef(onConflict);
  // The latest callbacks for saves that timers and events start after this render.
  useLayoutEffect(() => {
    snapshotRef.current = snapshot;
    onSavedRef.current = onSaved;
    onConflictRef.current = onConflict;
  });

  const isDirty = () => anyField(store.get().dirty);

  /**
   * Writes what is not saved yet to localStorage, synchronously (it must work
   * from pagehide). `contentJson` saves serializing the body twice.
   */
  const keepDraft = (fields: Fields, now: NoteSnapshot = snapshotRef.current(), contentJson?: string) => {
    window.clearTimeout(draftTimer.current);
    if (!anyField(fields)) return;
    const { version, reason } = store.get();
    const draft: Omit<NoteDraft, "content"> = {
      noteId,
      baseVersion: version,
      title: fields.title ? now.title : undefined,
      tags: fields.tags ? now.tags : undefined,
      pinned: fields.pinned ? now.pinned : undefined,
      savedAt: new Date().toISOString(),
      reason,
    };
    const json = fields.content ? (contentJson ?? JSON.stringify(now.content())) : undefined;
    dispatch({ type: "draft_kept", kept: writeDraft(draft, json) });
  };

  /** Keeps the unsaved changes now, if there are any. */
  const keepUnsaved = () => {
    const { dirty, sending } = store.get();
    const fields = sending ? unionFields(dirty, sending) : dirty;
    if (anyField(fields)) keepDraft(fields);
  };

  // Declared before use through a ref so run() and flush() can schedule each other.
  const flushRef = useRef<() => Promise<void>>(async () => {});

  const schedule = (delayMs: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flushRef.current(), delayMs);
  };

  /** An answer to the save on its way: the session says whether saving goes on by itself, or waits (the draft keeps the changes then). */
  const answer = (event: EditorSessionEvent) => {
    const next = dispatch(event);
    if (next.status === "error") keepUnsaved();
    if (next.again !== null) schedule(next.again);
    return next;
  };

  const run = useCallback(async () => {
    const before = store.get();
    if (before.hold || !anyField(before.dirty)) return;
    const sent = before.dirty;
    const now = snapshotRef.current();
    const content = sent.content ? now.content() : undefined;
    const contentJson = content === undefined ? undefined : JSON.stringify(content);
    keepDraft(sent, now, contentJson);

    const bytes = contentJson === undefined ? 0 : jsonBytes(contentJson);
    if (bytes > NOTE_CONTENT_MAX_BYTES) {
      // Refused here rather than by the server's request limit, whose answer says nothing useful.
      dispatch({ type: "save_refused", message: contentTooLargeMessage(bytes) });
      keepUnsaved();
      return;
    }

    const input: SaveNoteInput = {
      id: noteId,
      version: before.version,
      session: sessionId,
      title: sent.title ? now.title : undefined,
      content: content as SaveNoteInput["content"],
      tagIds: sent.tags ? now.tags.map((tag) => tag.id) : undefined,
      pinned: sent.pinned ? now.pinned : undefined,
    };
    dispatch({ type: "save_started" });
    let result: SaveNoteResult;
    try {
      result = await saveNoteAction(input);
      if (!result || typeof result !== "object") throw new Error("");
    } catch (err) {
      if (isNetworkFailure(err)) {
        // No answer: keep the changes and try again, for as long as it takes.
        answer({ type: "save_offline" });
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
      const next = answer({ type: "save_succeeded", version: result.version, updatedAt: result.updatedAt, wrote });
      onSavedRef.current?.({ tags: result.tags });
      if (next.status === "saved") removeDraft(noteId);
      return;
    }
    if (result.error === "conflict") {
      // The sent fields are pending again before the merge, which saves on top of their version.
      const merged = onConflictRef.current?.(result.current) ?? false;
      answer({ type: "save_conflicted", current: result.current, merged });
      return;
    }
    answer({ type: "save_failed", error: result.error, message: result.message });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read the store only
  }, [noteId, sessionId]);

  const flush = useCallback(() => {
    window.clearTimeout(timer.current);
    queue.current = queue.current.then(run, run);
    return queue.current;
  }, [run]);
  useLayoutEffect(() => {
    flushRef.current = flush;
  }, [flush]);

  /** Records a change; typing waits for a pause, picking a tag or pinning saves at once. */
  const markChanged = useCallback(
    (field: NoteField, delayMs = TYPING_DELAY_MS) => {
      const next = dispatch({ type: "changed", field });
      if (next.hold) {
        // Not saving now (conflict, signed out…): keep the change in the browser all the same.
        window.clearTimeout(draftTimer.current);
        draftTimer.current = window.setTimeout(keepUnsaved, TYPING_DELAY_MS);
        return;
      }
      schedule(delayMs);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read the store only
    [],
  );

  /** A write made elsewhere (`current`) was merged into what is on screen: saves are now conditional on it. */
  const rebase = useCallback((current: EditorNote) => void store.dispatch({ type: "rebased", current }), [store]);

  /** Conflict resolved by taking the note as it is now (or unsaved changes discarded); the caller shows `current`. */
  const acceptRemote = useCallback(
    (current: EditorNote) => {
      window.clearTimeout(timer.current);
      window.clearTimeout(draftTimer.current);
      dispatch({ type: "remote_accepted", current });
      removeDraft(noteId);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
    [noteId],
  );

  /** Conflict resolved by saving what is on screen over the newer version, as an explicit choice. */
  const keepMine = useCallback(() => {
    if (!store.get().conflict) return Promise.resolve();
    dispatch({ type: "kept_mine" });
    return flush();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
  }, [flush]);

  /** Stops saving (the note is being deleted) and waits for a save already on its way. */
  const stop = useCallback(async () => {
    window.clearTimeout(timer.current);
    dispatch({ type: "stopped" });
    await queue.current;
    return store.get().version;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
  }, []);

  const resume = useCallback(() => void store.dispatch({ type: "resumed" }), [store]);

  /** After a failure the person has dealt with (signed in again, say) or asks to try again: save what is pending. */
  const retry = useCallback(() => {
    dispatch({ type: "retried" });
    return flush();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
  }, [flush]);

  /**
   * Unsaved changes found in this browser after a reload, already shown on the
   * page: they wait (status "Not saved") until the person saves, edits or
   * discards them. Saving is conditional on the version they were made on.
   */
  const restoreDraft = useCallback((draft: NoteDraft) => {
    window.clearTimeout(timer.current);
    dispatch({
      type: "draft_restored",
      baseVersion: draft.baseVersion,
      fields: { title: draft.title !== undefined, content: draft.content !== undefined, tags: draft.tags !== undefined, pinned: draft.pinned !== undefined },
      reason: draft.reason,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
  }, []);

  const showConflict = useCallback((current: EditorNote) => {
    window.clearTimeout(timer.current);
    dispatch({ type: "conflict_shown", current });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- dispatch reads the store only
  }, []);

  const hasUnsaved = useCallback(() => sessionHasUnsaved(store.get()), [store]);
  /** A save is on its way: its answer, not a read, says what the server has. */
  const saving = useCallback(() => store.get().sending !== null, [store]);

  // Leaving: keep unsaved changes in the browser and try to send them; warn while something is unsaved.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState !== "hidden" || !hasUnsaved()) return;
      keepUnsaved();
      if (isDirty()) void flush();
    };
    const onPageHide = () => {
      if (hasUnsaved()) keepUnsaved();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsaved()) return;
      keepUnsaved();
      void flush();
      event.preventDefault();
    };
    const onOnline = () => {
      if (isDirty()) void flush();
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
      // Navigating away inside the app unmounts the editor: keep and send what is pending.
      window.clearTimeout(timer.current);
      if (hasUnsaved()) keepUnsaved();
      if (isDirty() && !store.get().hold) void flush();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read the store only
  }, [flush]);

  return {
    status: session.status,
    failure: session.failure,
    draftKept: session.draftKept,
    retry,
    conflict: session.conflict,
    updatedAt: session.updatedAt,
    version: () => store.get().version,
    base: () => store.get().base,
    rebase,
    saving,
    markChanged,
    flush,
    acceptRemote,
    keepMine,
    showConflict,
    restoreDraft,
    stop,
    resume,
    hasUnsaved,
  };
}
