import type { ReactNode } from "react";
import { NotesSplit } from "@/components/notes/notes-pane";

// Rendered on every request and every refresh from the server (router.refresh()
// after a delete, say), never on a move between notes: the list beside an open
// note reads itself again when `refreshed` changes.
export default async function NotesLayout({ children }: { children: ReactNode }) {
  return <NotesSplit refreshed={Date.now()}>{children}</NotesSplit>;
}
