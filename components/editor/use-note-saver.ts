"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { removeDraft, writeDraft, type NoteDraft } from "@/components/editor/note-draft";
import { NOTE_CONTENT_MAX_BYTES } from "@/lib/editor/document";
import { contentTooLargeMessage, type EditorNote, type SaveNoteResult } from "@/lib/editor/types";
import { saveNoteAction, type SaveNoteInput } from "@/lib/notes/actions";
import type { TTag } from "@/lib/tags/schemas";

export type SaveStatus = "saved" | "saving" | "offline" | "conflict" | "error";

/** Why the last save did not happen, in words for the person. */
export type SaveFailure = {
  /**
   * refused: the note as it is cannot be saved (too large, say): changing it or
   * "Try again" saves again, nothing else does. server: the server failed; it
   * is tried again a few times by itself. signed_out / not_found: as named.
   */
  kind: "refused" | "server" | "signed_out" | "not_found";
  message: string;
  /** Another attempt is scheduled without the person doing anything. */
  retrying: boolean;
};

const FIELDS = ["title", "content", "tags", "pinned"] as const;
type Field = (typeof FIELDS)[number];
type Dirty = Record<Field, boolean>;
/** Why saving waits for the person: until then changes are only kept in the browser. */
type Hold = "conflict" | "signed_out" | "not_found" | "refused" | "stopped" | null;

const everyField = (value: boolean) => Object.fromEntries(FIELDS.map((field) => [field, value])) as Dirty;
const CLEAN = everyField(false);
const ALL = everyField(true);
const anyField = (fields: Dirty) => FIELDS.some((field) => fields[field]);
/** The fields changed in either. */
const union = (a: Dirty, b: Dirty) => Object.fromEntries(FIELDS.map((field) => [field, a[field] || b[field]])) as Dirty;
const TYPING_DELAY_MS = 700;
const MAX_RETRY_MS = 30_000;
/** A failing server is asked again this many times (after 2 s, then 6 s), then saving waits for the person. */
const SERVER_RETRIES = 2;

/**
 * A new editor session's id, a version 4 UUID: one visit to the note in one
 * tab. The history joins a person's saves into one version only within a
 * session (see note_revision_record), so leaving the note and coming back
 * starts a new version. Made with getRandomValues, which, unlike randomUUID,
 * browsers also offer to pages served over plain HTTP.
 */
function newEditorSession(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type NoteSnapshot = { title: string; content: () => unknown[]; tags: TTag[]; pinned: boolean };
/** The note as the server has it at the version saves are conditional on: the base a write made elsewhere is merged against. */
export type NoteBase = { title: string; content: unknown; tags: TTag[]; pinned: boolean };

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
  const { id: noteId, version: initialVersion, updatedAt: initialUpdatedAt } = note;
  const [status, setStatus] = useState<SaveStatus>("saved");
  const [conflict, setConflict] = useState<EditorNote | null>(null);
  const [failure, setFailureState] = useState<SaveFailure | null>(null);
  /** False when this browser would not store the unsaved changes (storage full or disabled). */
  const [draftKept, setDraftKept] = useState(true);
  const [updatedAt, setUpdatedAt] = useState(initialUpdatedAt);

  const version = useRef(initialVersion);
  const [session] = useState(newEditorSession);
  /** Null when not known: unsaved changes from an earlier visit made on an older version. */
  const base = useRef<NoteBase | null>({ title: note.title, content: note.content, tags: note.tags, pinned: note.pinned });
  const dirty = useRef<Dirty>({ ...CLEAN });
  /** Fields of the save on its way, kept in the draft until it is answered. */
  const sending = useRef<Dirty>({ ...CLEAN });
  const queue = useRef<Promise<void>>(Promise.resolve());
  const inFlight = useRef(false);
  const hold = useRef<Hold>(null);
  const timer = useRef<number | undefined>(undefined);
  const draftTimer = useRef<number | undefined>(undefined);
  const retryMs = useRef(0);
  const serverFailures = useRef(0);
  const reason = useRef<string | undefined>(undefined);
  const snapshotRef = useRef(snapshot);
  const onSavedRef = useRef(onSaved);
  const onConflictRef = useRef(onConflict);
  // The latest callbacks for saves that timers and events start after this render.
  useLayoutEffect(() => {
    snapshotRef.current = snapshot;
    onSavedRef.current = onSaved;
    onConflictRef.current = onConflict;
  });

  const isDirty = () => anyField(dirty.current);

  const restore = (sent: Dirty) => {
    dirty.current = union(dirty.current, sent);
  };

  const setFailure = (next: SaveFailure | null) => {
    reason.current = next?.message;
    setFailureState(next);
  };

  /**
   * Writes what is not saved yet to localStorage, synchronously (it must work
   * from pagehide). `contentJson` saves serializing the body twice.
   */
  const keepDraft = (fields: Dirty, now: NoteSnapshot = snapshotRef.current(), contentJson?: string) => {
    window.clearTimeout(draftTimer.current);
    if (!anyField(fields)) return;
    const draft: Omit<NoteDraft, "content"> = {
      noteId,
      baseVersion: version.current,
      title: fields.title ? now.title : undefined,
      tags: fields.tags ? now.tags : undefined,
      pinned: fields.pinned ? now.pinned : undefined,
      savedAt: new Date().toISOString(),
      reason: reason.current,
    };
    const json = fields.content ? (contentJson ?? JSON.stringify(now.content())) : undefined;
    setDraftKept(writeDraft(draft, json));
  };

  /** Keeps the unsaved changes now, if there are any. */
  const keepUnsaved = () => {
    const fields = union(dirty.current, sending.current);
    if (anyField(fields)) keepDraft(fields);
  };

  /** Stops with the reason shown; the draft remembers it for after a reload. */
  function refuse(next: SaveFailure, holdAs: Hold = "refused") {
    hold.current = holdAs;
    setFailure(next);
    setStatus("error");
    keepUnsaved();
  }

  // Declared before use through a ref so run() and flush() can schedule each other.
  const flushRef = useRef<() => Promise<void>>(async () => {});

  const schedule = (delayMs: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flushRef.current(), delayMs);
  };

  const run = useCallback(async () => {
    if (hold.current || !isDirty()) return;
    const sent = dirty.current;
    dirty.current = { ...CLEAN };
    const now = snapshotRef.current();
    const content = sent.content ? now.content() : undefined;
    const contentJson = content === undefined ? undefined : JSON.stringify(content);
    keepDraft(sent, now, contentJson);

    const bytes = contentJson === undefined ? 0 : jsonBytes(contentJson);
    if (bytes > NOTE_CONTENT_MAX_BYTES) {
      // Refused here rather than by the server's request limit, whose answer says nothing useful.
      restore(sent);
      refuse({ kind: "refused", message: contentTooLargeMessage(bytes), retrying: false });
      return;
    }

    const input: SaveNoteInput = {
      id: noteId,
      version: version.current,
      session,
      title: sent.title ? now.title : undefined,
      content: content as SaveNoteInput["content"],
      tagIds: sent.tags ? now.tags.map((tag) => tag.id) : undefined,
      pinned: sent.pinned ? now.pinned : undefined,
    };
    inFlight.current = true;
    sending.current = sent;
    setStatus("saving");
    let result: SaveNoteResult;
    try {
      result = await saveNoteAction(input);
      if (!result || typeof result !== "object") throw new Error("");
    } catch (err) {
      if (isNetworkFailure(err)) {
        // No answer: keep the changes and try again, for as long as it takes.
        inFlight.current = false;
        sending.current = { ...CLEAN };
        restore(sent);
        retryMs.current = Math.min(MAX_RETRY_MS, Math.max(1000, retryMs.current * 2));
        setFailure(null);
        setStatus("offline");
        schedule(retryMs.current);
        return;
      }
      result = { ok: false, error: "server", message: describeThrown(err) };
    }
    inFlight.current = false;
    sending.current = { ...CLEAN };
    retryMs.current = 0;
    if (result.ok) {
      serverFailures.current = 0;
      version.current = result.version;
      // What the server has now: the base it had, with what this save wrote.
      if (base.current) {
        base.current = {
          title: input.title ?? base.current.title,
          content: content ?? base.current.content,
          tags: sent.tags ? now.tags : base.current.tags,
          pinned: input.pinned ?? base.current.pinned,
        };
      }
      setUpdatedAt(result.updatedAt);
      setFailure(null);
      onSavedRef.current?.({ tags: result.tags });
      if (isDirty()) {
        // More changes arrived while this one was on its way.
        schedule(0);
      } else {
        removeDraft(noteId);
        setStatus("saved");
      }
      return;
    }
    restore(sent);
    if (result.error === "conflict" && onConflictRef.current?.(result.current)) {
      // Merged into what is on screen: saved again, on top of their version.
      schedule(0);
    } else if (result.error === "conflict") {
      hold.current = "conflict";
      setConflict(result.current);
      setStatus("conflict");
    } else if (result.error === "server") {
      serverFailures.current += 1;
      const again = serverFailures.current <= SERVER_RETRIES;
      refuse({ kind: "server", message: result.message, retrying: again }, again ? null : "refused");
      if (again) schedule(2000 * 3 ** (serverFailures.current - 1));
    } else if (result.error === "invalid") {
      refuse({ kind: "refused", message: result.message, retrying: false });
    } else {
      refuse({ kind: result.error, message: result.message, retrying: false }, result.error);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read refs only
  }, [noteId, session]);

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
    (field: Field, delayMs = TYPING_DELAY_MS) => {
      dirty.current = { ...dirty.current, [field]: true };
      // A refused note that changed may be accepted now: one more try, after the pause.
      if (hold.current === "refused") hold.current = null;
      if (hold.current) {
        // Not saving now (conflict, signed out…): keep the change in the browser all the same.
        window.clearTimeout(draftTimer.current);
        draftTimer.current = window.setTimeout(keepUnsaved, TYPING_DELAY_MS);
        return;
      }
      setStatus((current) => (current === "offline" || current === "error" ? current : "saving"));
      schedule(delayMs);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read refs only
    [],
  );

  /** A write made elsewhere (`current`) was merged into what is on screen: saves are now conditional on it. */
  const rebase = useCallback((current: EditorNote) => {
    version.current = current.version;
    base.current = { title: current.title, content: current.content, tags: current.tags, pinned: current.pinned };
    setUpdatedAt(current.updatedAt);
  }, []);

  /** Conflict resolved by taking the note as it is now (or unsaved changes discarded); the caller shows `current`. */
  const acceptRemote = useCallback(
    (current: EditorNote) => {
      window.clearTimeout(timer.current);
      window.clearTimeout(draftTimer.current);
      rebase(current);
      dirty.current = { ...CLEAN };
      hold.current = null;
      serverFailures.current = 0;
      removeDraft(noteId);
      setConflict(null);
      setFailure(null);
      setStatus("saved");
    },
    [noteId, rebase],
  );

  /** Conflict resolved by saving what is on screen over the newer version, as an explicit choice. */
  const keepMine = useCallback(() => {
    if (!conflict) return Promise.resolve();
    rebase(conflict);
    dirty.current = { ...ALL };
    hold.current = null;
    setConflict(null);
    return flush();
  }, [conflict, flush, rebase]);

  /** Stops saving (the note is being deleted) and waits for a save already on its way. */
  const stop = useCallback(async () => {
    window.clearTimeout(timer.current);
    hold.current = "stopped";
    dirty.current = { ...CLEAN };
    await queue.current;
    return version.current;
  }, []);

  const resume = useCallback(() => {
    hold.current = null;
  }, []);

  /** After a failure the person has dealt with (signed in again, say) or asks to try again: save what is pending. */
  const retry = useCallback(() => {
    hold.current = null;
    serverFailures.current = 0;
    setFailure(null);
    if (!isDirty()) setStatus("saved");
    return flush();
  }, [flush]);

  /**
   * Unsaved changes found in this browser after a reload, already shown on the
   * page: they wait (status "Not saved") until the person saves, edits or
   * discards them. Saving is conditional on the version they were made on.
   */
  const restoreDraft = useCallback((draft: NoteDraft) => {
    window.clearTimeout(timer.current);
    // Made on an older version than the page shows: what they changed from is not known here.
    if (draft.baseVersion !== version.current) base.current = null;
    version.current = draft.baseVersion;
    dirty.current = {
      title: draft.title !== undefined,
      content: draft.content !== undefined,
      tags: draft.tags !== undefined,
      pinned: draft.pinned !== undefined,
    };
    hold.current = "refused";
    reason.current = draft.reason;
    setStatus("error");
  }, []);

  const showConflict = useCallback((current: EditorNote) => {
    window.clearTimeout(timer.current);
    hold.current = "conflict";
    setConflict(current);
    setStatus("conflict");
  }, []);

  const hasUnsaved = useCallback(() => isDirty() || inFlight.current, []);
  /** A save is on its way: its answer, not a read, says what the server has. */
  const saving = useCallback(() => inFlight.current, []);

  // Leaving: keep unsaved changes in the browser and try to send them; warn while something is unsaved.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState !== "hidden" || (!isDirty() && !inFlight.current)) return;
      keepUnsaved();
      if (isDirty()) void flush();
    };
    const onPageHide = () => {
      if (isDirty() || inFlight.current) keepUnsaved();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty() && !inFlight.current) return;
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
      if (isDirty() || inFlight.current) keepUnsaved();
      if (isDirty() && !hold.current) void flush();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read refs only
  }, [flush]);

  return {
    status,
    failure,
    draftKept,
    retry,
    conflict,
    updatedAt,
    version: () => version.current,
    base: () => base.current,
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
