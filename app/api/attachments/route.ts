import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { attachmentLimitText, storeAttachment } from "@/lib/attachments/mutations";
import { ZUploadQuerySchema } from "@/lib/attachments/schemas";
import { withAuth } from "@/lib/auth/with-auth";
import { getEnv } from "@/lib/env";
import { AppError, jsonResponse } from "@/lib/errors";
import { parseQuery } from "@/lib/http";
import { BodyTooLargeError, readBodyBytes } from "@/lib/request-body";

export const dynamic = "force-dynamic";

// POST /api/attachments?name= – store an image or file (the raw bytes, with their Content-Type) for its owner:
// an agent with its session token, or the person in the browser (pasting or dropping into a note)
export const POST = withAuth(
  async ({ req, user, db }) => {
    const { name } = parseQuery(req, ZUploadQuerySchema);
    // Counted while it streams: an upload over the limit is cut off, never held whole.
    const bytes = await readBodyBytes(req, getEnv().ATTACHMENT_MAX_BYTES).catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) {
        // The rest is not read: the server closes the connection after this answer (scripts/lib/server.ts).
        throw new AppError("PAYLOAD_TOO_LARGE", { userMessage: `The file is over the ${attachmentLimitText()} limit` });
      }
      throw err;
    });
    const attachment = await storeAttachment(db, { userId: user.userId, bytes, declaredType: req.headers.get("content-type"), name });
    return jsonResponse({ attachment }, { status: 201 });
  },
  { browserSession: true },
);

export const GET = methodNotAllowed("/api/attachments");
export const PUT = methodNotAllowed("/api/attachments");
export const PATCH = methodNotAllowed("/api/attachments");
export const DELETE = methodNotAllowed("/api/attachments");
export const OPTIONS = answerOptions("/api/attachments");
