"use server";

import { z } from "zod";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { isAppError, isUnavailable, UNAVAILABLE_ACTION_MESSAGE } from "@/lib/errors";
import { personAuthor } from "@/lib/db/author";
import { createTag, deleteTag, renameTag } from "@/lib/tags/mutations";
import { TAG_NAME_MAX, ZCreateTagSchema, type TTag } from "@/lib/tags/schemas";

export type TagActionResult = { ok: true; tag: TTag } | { ok: false; message: string };

// These actions re-render nothing themselves: the tags page refreshes after
// them, while the editor's tag picker (which creates tags too) must not
// re-render the note it is editing.

const SIGNED_OUT = "You have been signed out. Sign in again to change tags.";
const INVALID_NAME = `A tag name needs 1 to ${TAG_NAME_MAX} characters.`;

/** Creates a tag (also from the editor's tag picker). A name the user already has, in any case, is refused. */
export async function createTagAction(name: string): Promise<TagActionResult> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: SIGNED_OUT };
  const input = ZCreateTagSchema.safeParse({ name });
  if (!input.success) return { ok: false, message: INVALID_NAME };
  try {
    const tag = await createTag(await getDb(), { userId: user.id, input: input.data });
    return { ok: true, tag };
  } catch (err) {
    return tagFailure(err);
  }
}

export async function renameTagAction(id: string, name: string): Promise<TagActionResult> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: SIGNED_OUT };
  const input = ZCreateTagSchema.safeParse({ name });
  if (!input.success) return { ok: false, message: INVALID_NAME };
  if (!z.guid().safeParse(id).success) return { ok: false, message: "This tag no longer exists." };
  try {
    const tag = await renameTag(await getDb(), { id, userId: user.id, author: personAuthor(user), input: input.data });
    return { ok: true, tag };
  } catch (err) {
    return tagFailure(err);
  }
}

/** Deletes a tag and takes it off its notes; the notes stay. */
export async function deleteTagAction(id: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, message: SIGNED_OUT };
  if (!z.guid().safeParse(id).success) return { ok: false, message: "This tag no longer exists." };
  try {
    await deleteTag(await getDb(), { id, userId: user.id, author: personAuthor(user) });
  } catch (err) {
    if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
    if (!isAppError(err, "TAG_NOT_FOUND")) throw err;
  }
  return { ok: true };
}

function tagFailure(err: unknown): { ok: false; message: string } {
  if (isAppError(err, "TAG_EXISTS", "TAG_NOT_FOUND")) return { ok: false, message: err.userMessage };
  if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
  throw err;
}
