import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { agentAuthor } from "@/lib/revisions/author";
import { jsonResponse, jsonTextResponse, MESSAGES, noteNotFound } from "@/lib/errors";
import { markdownResponse, matchesIfNoneMatch, parseId, parseJsonBody, parseQuery, preferredMediaType } from "@/lib/http";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { deleteNote, updateNote } from "@/lib/notes/mutations";
import { getNoteBlocksOrThrow } from "@/lib/notes/blocks";
import { getNoteMarkdownOrThrow } from "@/lib/notes/markdown";
import { getNoteJsonOrThrow } from "@/lib/notes/queries";
import { getNoteVersion } from "@/lib/notes/version";
import { ZNoteFormatQuerySchema, ZUpdateNoteSchema } from "@/lib/notes/schemas";

export const dynamic = "force-dynamic";

type Params = { id: string };

// GET /api/notes/[id] – one note as JSON, as Markdown (Accept: text/markdown or ?format=markdown) or as its blocks' outline (?format=blocks), with its version as a strong ETag (If-None-Match → 304)
// Also the browser's session: an open editor asks this, conditionally, to learn of writes made elsewhere.
export const GET = withAuth<Params>(
  async ({ req, params, user, db }) => {
    const id = parseId(params.id, MESSAGES.invalidNoteId);
    const { format } = parseQuery(req, ZNoteFormatQuerySchema);
    if (req.headers.has("if-none-match")) {
      // The version alone decides: a caller whose copy is current gets 304 without the note being read.
      const current = await getNoteVersion(db, { id, userId: user.userId });
      if (!current) throw noteNotFound();
      const etag = noteEtag(current.version);
      if (matchesIfNoneMatch(req, etag)) return new Response(null, { status: 304, headers: { ETag: etag, Vary: "Accept" } });
    }
    if (format === "blocks") {
      const { body, version } = await getNoteBlocksOrThrow(db, { id, userId: user.userId });
      return jsonResponse(body, { headers: { ETag: noteEtag(version) } });
    }
    const markdown = format ? format === "markdown" : preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
    // The representation depends on Accept, so caches must key on it.
    const vary = { Vary: "Accept" };
    if (markdown) {
      // Stored at write time: a read, not a conversion.
      const found = await getNoteMarkdownOrThrow(db, { id, userId: user.userId });
      return markdownResponse(found.markdown, { headers: { ETag: noteEtag(found.version), ...vary } });
    }
    const { noteJson, version } = await getNoteJsonOrThrow(db, { id, userId: user.userId });
    return jsonTextResponse(`{"note":${noteJson}}`, { headers: { ETag: noteEtag(version), ...vary } });
  },
  { browserSession: true },
);

// PATCH /api/notes/[id] – partial update (content as BlockNote JSON or Markdown); tagIds replaces the tags; If-Match guards against lost updates
export const PATCH = withAuth<Params>(async ({ req, params, user, db }) => {
  const id = parseId(params.id, MESSAGES.invalidNoteId);
  const input = await parseJsonBody(req, ZUpdateNoteSchema);
  const ifVersion = versionFromIfMatch(req.headers.get("if-match"));
  const { note, version } = await updateNote(db, { id, userId: user.userId, author: agentAuthor("api", user), input, ifVersion });
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
export const OPTIONS = answerOptions("/api/notes/{id}");
