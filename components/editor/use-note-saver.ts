"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { saveNoteAction, type SaveNoteInput } from "@/app/(app)/notes/[id]/actions";
import type { EditorNote, SaveNoteResult } from "@/lib/editor/types";
import type { TTag } from "@/lib/tags/schemas";

export type SaveStatus = "saved" | "saving" | "offline" | "conflict" | "error";

type Field = "title" | "content" | "tags";
type Dirty = Record<Field, boolean>;

const CLEAN: Dirty = { title: false, content: false, tags: false };
const ALL: Dirty = { title: true, content: true, tags: true };
const TYPING_DELAY_MS = 700;
const MAX_RETRY_MS = 30_000;

export type NoteSnapshot = { title: string; content: () => unknown[]; tagIds: string[] };

/**
 * Autosave for one open note. Changes are debounced and sent one save at a
 * time, each conditional on the version the editor last saw: when someone
 * else (an agent through the API, another tab) wrote in between, nothing is
 * overwritten and the save stops in "conflict" until the person chooses to
 * reload theirs or keep their own. A lost connection retries with backoff.
 */
export function useNoteSaver({
  noteId,
  initialVersion,
  initialUpdatedAt,
  snapshot,
  onSaved,
}: {
  noteId: string;
  initialVersion: number;
  initialUpdatedAt: string;
  /** What is on screen now; content is read lazily since serializing a long document is not free. */
  snapshot: () => NoteSnapshot;
  onSaved?: (result: { tags: TTag[] }) => void;
}) {
  const [status, setStatus] = useState<SaveStatus>("saved");
  const [conflict, setConflict] = useState<EditorNote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const [updatedAt, setUpdatedAt] = useState(initialUpdatedAt);

  const version = useRef(initialVersion);
  const dirty = useRef<Dirty>({ ...CLEAN });
  const queue = useRef<Promise<void>>(Promise.resolve());
  const inFlight = useRef(false);
  const blocked = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const retryMs = useRef(0);
  const snapshotRef = useRef(snapshot);
  snapshotRef.current = snapshot;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const isDirty = () => dirty.current.title || dirty.current.content || dirty.current.tags;

  const restore = (sent: Dirty) => {
    dirty.current = {
      title: dirty.current.title || sent.title,
      content: dirty.current.content || sent.content,
      tags: dirty.current.tags || sent.tags,
    };
  };

  // Declared before use through a ref so run() and flush() can schedule each other.
  const flushRef = useRef<() => Promise<void>>(async () => {});

  const run = useCallback(async () => {
    if (blocked.current || !isDirty()) return;
    const sent = dirty.current;
    dirty.current = { ...CLEAN };
    const now = snapshotRef.current();
    const input: SaveNoteInput = {
      id: noteId,
      version: version.current,
      title: sent.title ? now.title : undefined,
      content: sent.content ? (now.content() as SaveNoteInput["content"]) : undefined,
      tagIds: sent.tags ? now.tagIds : undefined,
    };
    inFlight.current = true;
    setStatus("saving");
    let result: SaveNoteResult;
    try {
      result = await saveNoteAction(input);
    } catch {
      // No answer (offline, server unreachable or failing): keep the changes and try again.
      inFlight.current = false;
      restore(sent);
      retryMs.current = Math.min(MAX_RETRY_MS, Math.max(1000, retryMs.current * 2));
      setStatus("offline");
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flushRef.current(), retryMs.current);
      return;
    }
    inFlight.current = false;
    retryMs.current = 0;
    if (result.ok) {
      version.current = result.version;
      setUpdatedAt(result.updatedAt);
      setError(null);
      onSavedRef.current?.({ tags: result.tags });
      if (isDirty()) {
        // More changes arrived while this one was on its way.
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => void flushRef.current(), 0);
      } else {
        setStatus("saved");
      }
      return;
    }
    restore(sent);
    blocked.current = true;
    if (result.error === "conflict") {
      setConflict(result.current);
      setStatus("conflict");
    } else {
      setError(result.message);
      setSignedOut(result.error === "signed_out");
      setStatus("error");
    }
  }, [noteId]);

  const flush = useCallback(() => {
    window.clearTimeout(timer.current);
    queue.current = queue.current.then(run, run);
    return queue.current;
  }, [run]);
  flushRef.current = flush;

  /** Records a change; typing waits for a pause, picking a tag saves at once. */
  const markChanged = useCallback(
    (field: Field, delayMs = TYPING_DELAY_MS) => {
      dirty.current = { ...dirty.current, [field]: true };
      if (blocked.current) return;
      setStatus((current) => (current === "offline" ? current : "saving"));
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush(), delayMs);
    },
    [flush],
  );

  /** Conflict resolved by taking the note as it is now; the caller shows `current` in the editor. */
  const acceptRemote = useCallback((current: EditorNote) => {
    window.clearTimeout(timer.current);
    version.current = current.version;
    dirty.current = { ...CLEAN };
    blocked.current = false;
    setConflict(null);
    setError(null);
    setUpdatedAt(current.updatedAt);
    setStatus("saved");
  }, []);

  /** Conflict resolved by saving what is on screen over the newer version, as an explicit choice. */
  const keepMine = useCallback(() => {
    if (!conflict) return Promise.resolve();
    version.current = conflict.version;
    dirty.current = { ...ALL };
    blocked.current = false;
    setConflict(null);
    return flush();
  }, [conflict, flush]);

  /** Stops saving (the note is being deleted) and waits for a save already on its way. */
  const stop = useCallback(async () => {
    window.clearTimeout(timer.current);
    blocked.current = true;
    dirty.current = { ...CLEAN };
    await queue.current;
    return version.current;
  }, []);

  const resume = useCallback(() => {
    blocked.current = false;
  }, []);

  /** After an error the person has dealt with (signed in again, say): save what is pending. */
  const retry = useCallback(() => {
    blocked.current = false;
    setError(null);
    setSignedOut(false);
    if (!isDirty()) setStatus("saved");
    return flush();
  }, [flush]);

  const showConflict = useCallback((current: EditorNote) => {
    window.clearTimeout(timer.current);
    blocked.current = true;
    setConflict(current);
    setStatus("conflict");
  }, []);

  const hasUnsaved = useCallback(() => isDirty() || inFlight.current, []);

  // Leaving: save when the tab is hidden or closed, warn if something is still unsaved.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden" && isDirty()) void flush();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty() && !inFlight.current) return;
      void flush();
      event.preventDefault();
    };
    const onOnline = () => {
      if (isDirty()) void flush();
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("online", onOnline);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("online", onOnline);
      // Navigating away inside the app unmounts the editor: send what is pending.
      if (isDirty() && !blocked.current) void flush();
      else window.clearTimeout(timer.current);
    };
  }, [flush]);

  return {
    status,
    error,
    signedOut,
    retry,
    conflict,
    updatedAt,
    version: () => version.current,
    markChanged,
    flush,
    acceptRemote,
    keepMine,
    showConflict,
    stop,
    resume,
    hasUnsaved,
  };
}
