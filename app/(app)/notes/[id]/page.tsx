import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { OpenNote } from "@/components/shell/open-note";
import { getCurrentUser, requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { NEW_NOTE_PARAM, newEditorNote, toEditorNote } from "@/lib/notes/editor-types";
import { isAppError } from "@/lib/errors";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { listTags } from "@/lib/tags/queries";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Metadata and page share one lookup per request.
const loadNote = cache(async (id: string, userId: string) => {
  if (!z.guid().safeParse(id).success) return null;
  try {
    return await getNoteOrThrow(await getDb(), { id, userId });
  } catch (err) {
    if (isAppError(err, "NOTE_NOT_FOUND")) return null;
    throw err;
  }
});

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { id } = await params;
  const user = await getCurrentUser();
  const found = user ? await loadNote(id, user.id) : null;
  return { title: found?.note.title ?? ((await searchParams)[NEW_NOTE_PARAM] === undefined ? "Note" : "New note") };
}

// A new note's address (?new=1) opens an empty editor with that id until its
// first save creates the note; a stored note opens as it is.
export default async function NotePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const user = await requireUser(`/notes/${id}`);
  const [found, allTags] = await Promise.all([loadNote(id, user.id), listTags(await getDb(), { userId: user.id })]);
  const isNew = (await searchParams)[NEW_NOTE_PARAM] !== undefined && z.guid().safeParse(id).success;
  if (!found && !isNew) notFound();
  const note = found ? toEditorNote(found.note, found.version) : newEditorNote(id);
  return <OpenNote note={note} allTags={allTags} now={Date.now()} />;
}
