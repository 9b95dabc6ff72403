"use server";

import { createTagOperation, deleteTagOperation, renameTagOperation } from "@/lib/operations/tags";
import { failureWords, runAction } from "@/lib/actions/run-action";
import { errorText, isAppError } from "@/lib/errors";
import { TAG_NAME_MAX, type TTag } from "@/lib/tags/schemas";

export type TagActionResult = { ok: true; tag: TTag } | { ok: false; message: string };

// These actions re-render nothing themselves: the tags page refreshes after
// them, while the editor's tag picker (which creates tags too) must not
// re-render the note it is editing.

const TAGS = {
  signedOut: { ok: false, message: "You have been signed out. Sign in again to change tags." } as const,
  fail: failureWords({
    INVALID_BODY: `A tag name needs 1 to ${TAG_NAME_MAX} characters.`,
    INVALID_TAG_ID: "This tag no longer exists.",
    TAG_EXISTS: errorText("TAG_EXISTS"),
    TAG_NOT_FOUND: errorText("TAG_NOT_FOUND"),
  }),
};

/** Creates a tag (also from the editor's tag picker). A name the user already has, in any case, is refused. */
export async function createTagAction(name: string): Promise<TagActionResult> {
  const result = await runAction<{ tag: TTag }, { ok: false; message: string }>(createTagOperation, { body: { name } }, TAGS);
  return result.ok ? { ok: true, tag: result.data.tag } : result;
}

export async function renameTagAction(id: string, name: string): Promise<TagActionResult> {
  const result = await runAction<{ tag: TTag }, { ok: false; message: string }>(renameTagOperation, { ids: { id }, body: { name } }, TAGS);
  return result.ok ? { ok: true, tag: result.data.tag } : result;
}

/** Deletes a tag and takes it off its notes; the notes stay. One already gone is what was asked. */
export async function deleteTagAction(id: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const fail = (err: unknown) => (isAppError(err, "TAG_NOT_FOUND") ? ({ ok: true } as const) : TAGS.fail(err));
  const result = await runAction(deleteTagOperation, { ids: { id } }, { ...TAGS, fail });
  return result.ok ? { ok: true } : result;
}
