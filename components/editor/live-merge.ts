"use client";

import { useEffect, useRef } from "react";
import type { NoteBlockEditor } from "@/components/editor/block-editor";
import { NOTE_PATH, pathTo } from "@/lib/http/paths";
import type { BlockOp, BlockPlace, MergeBlock } from "@/lib/body/merge";
import { LIVE_CHECK_MS, toEditorNote, type EditorNote } from "@/lib/notes/editor-types";
import { noteEtag, parseNoteEtag } from "@/lib/notes/etag";
import type { TNote } from "@/lib/notes/schemas";

/** A check that gets no answer in this time is dropped; the next one asks again. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Asks, every LIVE_CHECK_MS while the page is visible (and at once when it
 * becomes visible again), whether the note has a newer version than
 * `version()`; hands a newer one to `onNewer`. Skipped while a save is on its
 * way: its answer says whether someone else wrote.
 */
export function useLiveNote({
  noteId,
  version,
  busy,
  onNewer,
}: {
  noteId: string;
  version: () => number;
  busy: () => boolean;
  onNewer: (current: EditorNote) => void;
}) {
  const onNewerRef = useRef(onNewer);
  useEffect(() => {
    onNewerRef.current = onNewer;
  });

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    let checking = false;
    // The newest version already handed on: while the person decides about it, it is not fetched again.
    let handed = 0;
    const check = async () => {
      // A new note nothing has saved yet: there is nothing elsewhere to be newer.
      if (stopped || checking || document.visibilityState !== "visible" || busy() || version() === 0) return;
      checking = true;
      try {
        const res = await fetch(pathTo(NOTE_PATH, { id: noteId }), {
          headers: { accept: "application/json", "if-none-match": noteEtag(Math.max(version(), handed)) },
          cache: "no-store",
          signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        if (res.status !== 200) return; // 304: unchanged. Signed out or gone: the next save says so.
        const seen = parseNoteEtag(res.headers.get("etag") ?? "");
        const body = (await res.json()) as { note?: TNote };
        if (stopped || seen === null || !body.note || seen <= Math.max(version(), handed) || busy()) return;
        handed = seen;
        onNewerRef.current(toEditorNote(body.note, seen));
      } catch {
        // Offline or timed out: the next check asks again.
      } finally {
        checking = false;
      }
    };
    const loop = () => {
      timer = window.setTimeout(() => void check().finally(() => !stopped && loop()), LIVE_CHECK_MS);
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    loop();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", onVisible);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", onVisible);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version and busy read the saver's refs
  }, [noteId]);
}

/** A block without ids (its own and its children's): the editor gives it new ones, so a copy never clashes with the original. */
export function withoutIds(block: MergeBlock): Omit<MergeBlock, "id"> {
  const { id: _id, children, ...rest } = block;
  return { ...rest, ...(children ? { children: children.map(withoutIds) as MergeBlock[] } : {}) };
}

/** Puts `blocks` at `place` in the editor; false when the place is not there any more. */
export function insertAt(editor: NoteBlockEditor, blocks: unknown[], place: BlockPlace): boolean {
  const partial = blocks as never;
  if ("after" in place) {
    if (!editor.getBlock(place.after)) return false;
    editor.insertBlocks(partial, place.after, "after");
    return true;
  }
  if (place.first === null) {
    editor.insertBlocks(partial, editor.document[0]!, "before");
    return true;
  }
  const parent = editor.getBlock(place.first);
  if (!parent) return false;
  if (parent.children.length > 0) editor.insertBlocks(partial, parent.children[0]!, "before");
  else editor.updateBlock(parent, { children: blocks } as never);
  return true;
}

/**
 * Applies a merge's operations to the editor in one transaction kept out of
 * the person's undo history (Undo takes back their typing, not an agent's
 * write). Blocks they do not name are not touched, so the cursor stays where
 * the person is typing.
 */
export function applyToEditor(editor: NoteBlockEditor, ops: readonly BlockOp[]): void {
  editor.transact((tr) => {
    tr.setMeta("addToHistory", false);
    for (const op of ops) {
      if (op.op === "update") editor.updateBlock(op.id, op.block as never);
      else if (op.op === "remove") editor.removeBlocks([op.id]);
      else if (op.op === "insert") insertAt(editor, [op.block], op.place);
      else {
        const block = editor.getBlock(op.id);
        if (!block) continue;
        editor.removeBlocks([op.id]);
        insertAt(editor, [block], op.place);
      }
    }
  });
}
