"use server";

import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { UNTITLED } from "@/lib/editor/types";
import { createNote } from "@/lib/notes/mutations";

/** Creates an empty note and opens it. */
export async function createNoteAction(): Promise<void> {
  const user = await getCurrentUser();
  if (!user) redirect("/sign-in");
  const { note } = await createNote(await getDb(), { userId: user.id, input: { title: UNTITLED, content: [], contentText: "" } });
  redirect(`/notes/${note.id}`);
}
