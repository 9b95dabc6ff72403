import { z } from "zod";
import { ATTACHMENT_PATH } from "@/lib/http/paths";

/** Where an attachment is served, relative to the API's base URL. */
export const attachmentUrl = (id: string) => ATTACHMENT_PATH.replace("{id}", id);

export const ZUploadQuerySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[^\p{Cc}/\\]*$/u, "A file name without control characters or slashes")
    .optional()
    .meta({ description: "The file's name (shown in the note and offered when it is downloaded); default: its type's usual name." }),
});

/** The MCP tool's arguments: the bytes as base64, since a tool call is JSON. */
export const ZUploadAttachmentToolSchema = ZUploadQuerySchema.extend({
  contentBase64: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, "Not base64")
    .meta({ description: "The file's bytes, base64-encoded." }),
  contentType: z.string().max(255).optional().meta({ description: "Its media type (image/png, application/pdf, text/markdown, …); checked against its bytes." }),
});

const ZAttachmentSchema = z.object({
  id: z.guid(),
  name: z.string(),
  contentType: z.string().meta({ description: "What its bytes were found to be." }),
  size: z.number().int(),
  url: z.string().meta({ description: "Where its owner fetches it, relative to the API base (send the session token, or the browser's session)." }),
  markdown: z.string().meta({ description: "Markdown that shows it in a note: an image, or a link to the file." }),
  createdAt: z.iso.datetime(),
});
export type TAttachment = z.infer<typeof ZAttachmentSchema>;

export const ZAttachmentResponseSchema = z.object({ attachment: ZAttachmentSchema });
