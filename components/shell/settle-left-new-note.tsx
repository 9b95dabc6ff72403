"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { discardNewNoteAction } from "@/lib/actions/notes";
import { clearLeftNewNoteCookie, readLeftNewNote } from "@/lib/notes/left-new-note";

/**
 * Settles a new note the page before this one left untouched by a full page
 * load (lib/notes/left-new-note.ts): deleted, unless this page is that note
 * again (a reload), which keeps it. Runs once per page load: in-app moves
 * leave a new note through its editor instead.
 */
export function SettleLeftNewNote() {
  const router = useRouter();
  useEffect(() => {
    const left = readLeftNewNote(document.cookie);
    if (!left) return;
    document.cookie = clearLeftNewNoteCookie;
    if (window.location.pathname === `/notes/${left.id}`) return;
    // Deleted only while still untouched (the action is conditional on the version); gone already when the list page deleted it.
    void discardNewNoteAction(left).then(
      ({ discarded }) => discarded && router.refresh(),
      // No answer (offline): the empty note stays, and is said here; a server failure is logged by the action.
      (err: unknown) => console.error(`The empty new note ${left.id} could not be deleted:`, err),
    );
  }, [router]);
  return null;
}
