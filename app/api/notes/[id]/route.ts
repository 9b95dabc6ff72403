import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId, parseJsonBody } from "@/lib/http";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { ZUpdateNoteSchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

type Params = { id: string };

// GET /api/notes/[id] – one note, with its version as a strong ETag
export const GET = withAuth<Params>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const { note, version } = await getNoteOrThrow(db, { id, userId: user.userId });
  return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
});

// PATCH /api/notes/[id] – partial update; tagIds replaces the tags; If-Match guards against lost updates
export const PATCH = withAuth<Params>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const input = await parseJsonBody(req, ZUpdateNoteSchema);
  const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
  const { note, version } = await updateNote(db, { id, userId: user.userId, input, ifVersion });
  return jsonResponse({ note }, { headers: { ETag: noteEtag(version) } });
});

// DELETE /api/notes/[id] – delete a note (only at the If-Match version, when given)
export const DELETE = withAuth<Params>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  await deleteNote(db, { id, userId: user.userId, ifVersion: versionFromIfMatch(req.headers.get("if-match")) });
  return new Response(null, { status: 204 });
});

export const POST = methodNotAllowed("/api/notes/{id}");
export const PUT = methodNotAllowed("/api/notes/{id}");
