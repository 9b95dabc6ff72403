import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { NoteEditor } from "@/components/editor/note-editor";
import { getCurrentUser, requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { toEditorNote } from "@/lib/notes/editor-types";
import { isAppError } from "@/lib/errors";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { listTags } from "@/lib/tags/queries";

type Params = Promise<{ id: string }>;

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

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const user = await getCurrentUser();
  const found = user ? await loadNote(id, user.id) : null;
  return { title: found?.note.title ?? "Note" };
}

export default async function NotePage({ params }: { params: Params }) {
  const { id } = await params;
  const user = await requireUser(`/notes/${id}`);
  const [found, allTags] = await Promise.all([loadNote(id, user.id), listTags(await getDb(), { userId: user.id })]);
  if (!found) notFound();
  return <NoteEditor note={toEditorNote(found.note, found.version)} allTags={allTags} now={Date.now()} />;
}
