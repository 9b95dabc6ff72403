import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { jsonResponse, MESSAGES } from "@/lib/errors";
import { markdownResponse, parseId, parseQuery, preferredMediaType } from "@/lib/http";
import { ZNoteFormatQuerySchema } from "@/lib/notes/schemas";
import { getRevisionOrThrow, revisionMarkdown } from "@/lib/revisions/queries";

export const dynamic = "force-dynamic";

type Params = { id: string; revisionId: string };

// GET /api/notes/[id]/revisions/[revisionId] – the note as it was at one revision, as JSON or as Markdown
export const GET = withAuth<Params>(async ({ req, params, user, db }) => {
  const noteId = parseId(params.id, MESSAGES.invalidNoteId);
  const revisionId = parseId(params.revisionId, MESSAGES.invalidRevisionId);
  const { format } = parseQuery(req, ZNoteFormatQuerySchema);
  const markdown = format ? format === "markdown" : preferredMediaType(req.headers.get("accept"), ["application/json", "text/markdown"]) === "text/markdown";
  const { revision } = await getRevisionOrThrow(db, { noteId, revisionId, userId: user.userId });
  const vary = { Vary: "Accept" };
  if (markdown) return markdownResponse(await revisionMarkdown(revision), { headers: vary });
  return jsonResponse({ revision }, { headers: vary });
});

export const POST = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}");
export const PUT = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}");
export const PATCH = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}");
export const DELETE = methodNotAllowed("/api/notes/{id}/revisions/{revisionId}");
export const OPTIONS = answerOptions("/api/notes/{id}/revisions/{revisionId}");
