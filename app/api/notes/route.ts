import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse } from "@/lib/errors";
import { parseJsonBody, parseQuery } from "@/lib/http";
import { noteEtag } from "@/lib/notes/etag";
import { createNote } from "@/lib/notes/mutations";
import { listNotes } from "@/lib/notes/queries";
import { ZCreateNoteSchema, ZListNotesQuerySchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

// GET /api/notes – a page of the user's notes, with search, tag filter and total
export const GET = withAuth(async ({ req, user, db }) => {
  const query = parseQuery(req, ZListNotesQuerySchema);
  return jsonResponse(await listNotes(db, { userId: user.userId, ...query }));
});

// POST /api/notes – create a note
export const POST = withAuth(async ({ req, user, db }) => {
  const input = await parseJsonBody(req, ZCreateNoteSchema);
  const { note, version } = await createNote(db, { userId: user.userId, input });
  return jsonResponse({ note }, { status: 201, headers: { ETag: noteEtag(version) } });
});

export const PUT = methodNotAllowed("/api/notes");
export const PATCH = methodNotAllowed("/api/notes");
export const DELETE = methodNotAllowed("/api/notes");
