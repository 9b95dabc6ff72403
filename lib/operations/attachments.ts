import { defineMcpOperation, defineOperation, httpRequest } from "@/lib/operations/operation";
import { ATTACHMENT_PATH, ATTACHMENTS_PATH } from "@/lib/http/paths";
import { attachmentLimitText, storeAttachment } from "@/lib/attachments/mutations";
import { readAttachment } from "@/lib/attachments/queries";
import { ZAttachmentResponseSchema, ZUploadAttachmentToolSchema, ZUploadQuerySchema } from "@/lib/attachments/schemas";
import { ACCEPTED_TYPES, isImageType } from "@/lib/attachments/types";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { matchesIfNoneMatch } from "@/lib/http/parse";
import { BodyTooLargeError, readBodyBytes } from "@/lib/server/request-body";

export const uploadAttachmentOperation = defineOperation({
  method: "POST",
  path: ATTACHMENTS_PATH,
  operationId: "uploadAttachment",
  description: `Store an image or file for a note: the raw bytes as the body, with their Content-Type, and ?name= for its file name. Its type is decided by its bytes (a declared type they contradict is refused with what they are). Accepted: ${ACCEPTED_TYPES.join(", ")}; at most ATTACHMENT_MAX_BYTES (10 MB by default). Answers its url, to fetch it with the same session token, and Markdown that shows it in a note.`,
  query: ZUploadQuerySchema,
  rawBody: { types: ACCEPTED_TYPES, description: "The file's bytes." },
  responses: { 201: ZAttachmentResponseSchema },
  // An agent with its session token, or the person in the browser (pasting or dropping into a note).
  browserSession: true,
  run: async (caller, { query: { name } }) => {
    const req = httpRequest(caller);
    // Counted while it streams: an upload over the limit is cut off, never held whole.
    const bytes = await readBodyBytes(req, getEnv().ATTACHMENT_MAX_BYTES).catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) {
        // The rest is not read: the server closes the connection after this answer (scripts/lib/server.ts).
        throw new AppError("FILE_TOO_LARGE", { args: [attachmentLimitText()] });
      }
      throw err;
    });
    return { attachment: await storeAttachment(caller.db, { userId: caller.userId, bytes, declaredType: req.headers.get("content-type"), name }) };
  },
});

/** MCP only: the file's bytes as a base64 argument, where REST takes them as the body (uploadAttachmentOperation). */
export const uploadAttachmentFromArgumentsOperation = defineMcpOperation({
  body: ZUploadAttachmentToolSchema,
  mcp: {
    tool: "upload_attachment",
    title: "Attach an image or file",
    description: `Store an image or file for your notes: contentBase64 (its bytes, base64), contentType (e.g. image/png) and name. Answers { attachment } with its url and the Markdown that shows it: add that Markdown to a note (edit_note with {"op": "append", "markdown": attachment.markdown}). Its type is decided by its bytes; accepted: ${ACCEPTED_TYPES.join(", ")}. A tool call carries at most about 700 KB of file; larger ones go through POST /api/attachments.`,
  },
  run: async ({ userId, db }, { body: { contentBase64, contentType, name } }) => {
    const bytes = Buffer.from(contentBase64, "base64");
    return { attachment: await storeAttachment(db, { userId, bytes, declaredType: contentType ?? null, name }) };
  },
});

export const getAttachmentOperation = defineOperation({
  method: "GET",
  path: ATTACHMENT_PATH,
  operationId: "getAttachment",
  description:
    "An attachment's bytes, to its owner only (another account's is a 404), with its Content-Type, an ETag (If-None-Match → 304), inline for images and as a download for other files.",
  ids: { id: "INVALID_ATTACHMENT_ID" },
  responses: {
    200: { body: null, binary: ACCEPTED_TYPES, description: "The bytes", headers: ["ETag"] },
    304: { body: null, description: "Not modified since the ETag given in If-None-Match", headers: ["ETag"] },
  },
  // A page reaches it directly (an image in a note), with the browser's session.
  browserSession: true,
  run: async (caller, { params: { id } }) => {
    const req = httpRequest(caller);
    const found = await readAttachment(caller.db, { id, userId: caller.userId });
    if (!found) throw new AppError("ATTACHMENT_NOT_FOUND");
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
  // Bytes, or a 304: only HTTP says them.
  answer: (response) => response,
});
