import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { readAttachment } from "@/lib/attachments/queries";
import { isImageType } from "@/lib/attachments/types";
import { withAuth } from "@/lib/auth/with-auth";
import { AppError, MESSAGES } from "@/lib/errors";
import { matchesIfNoneMatch, parseId } from "@/lib/http";

export const dynamic = "force-dynamic";

const notFound = () => new AppError("NOT_FOUND", { userMessage: MESSAGES.attachmentNotFound });

// GET /api/attachments/[id] – the bytes, to their owner only (token or browser session); anyone else gets 404
export const GET = withAuth<{ id: string }>(
  async ({ req, params, user, db }) => {
    const id = parseId(params.id, MESSAGES.invalidAttachmentId);
    const found = await readAttachment(db, { id, userId: user.userId });
    if (!found) throw notFound();
    const etag = `"${found.sha256}"`;
    const headers = {
      ETag: etag,
      // Private to its owner; the bytes under an id never change, so a copy is revalidated, not fetched again.
      "Cache-Control": "private, no-cache",
      "Content-Type": found.contentType,
      "Content-Disposition": `${isImageType(found.contentType) ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(found.name)}`,
      "X-Content-Type-Options": "nosniff",
      // Opened on its own, it runs nothing and reaches nothing.
      "Content-Security-Policy": "default-src 'none'; sandbox",
    };
    if (matchesIfNoneMatch(req, etag)) return new Response(null, { status: 304, headers });
    return new Response(Buffer.from(found.bytes), { status: 200, headers: { ...headers, "Content-Length": String(found.size) } });
  },
  { browserSession: true },
);

export const POST = methodNotAllowed("/api/attachments/{id}");
export const PUT = methodNotAllowed("/api/attachments/{id}");
export const PATCH = methodNotAllowed("/api/attachments/{id}");
export const DELETE = methodNotAllowed("/api/attachments/{id}");
export const OPTIONS = answerOptions("/api/attachments/{id}");
