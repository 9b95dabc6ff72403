import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { parseId, parseJsonBody } from "@/lib/http";
import { deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteOrThrow } from "@/lib/notes/queries";
import { ZUpdateNoteSchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

type Params = { id: string };

// GET /api/notes/[id] – one note
export const GET = withAuth<Params>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  return jsonResponse({ note: await getNoteOrThrow(db, { id, userId: user.userId }) });
});

// PATCH /api/notes/[id] – partial update; tagIds replaces the tags
export const PATCH = withAuth<Params>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const input = await parseJsonBody(req, ZUpdateNoteSchema);
  return jsonResponse({ note: await updateNote(db, { id, userId: user.userId, input }) });
});

// DELETE /api/notes/[id] – delete a note
export const DELETE = withAuth<Params>(async ({ params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  await deleteNote(db, { id, userId: user.userId });
  return new Response(null, { status: 204 });
});

export const POST = methodNotAllowed("/api/notes/{id}");
export const PUT = methodNotAllowed("/api/notes/{id}");
