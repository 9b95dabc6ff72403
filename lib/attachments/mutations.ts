import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { attachmentUrl, type TAttachment } from "@/lib/attachments/schemas";
import { detectType, isImageType } from "@/lib/attachments/types";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "application/zip": "zip",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/csv": "csv",
  "application/json": "json",
};

/** The largest upload, as people read it: "10 MB". */
export const attachmentLimitText = (bytes = getEnv().ATTACHMENT_MAX_BYTES) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;

/**
 * Stores an image or file for its owner: its type decided by its bytes
 * (lib/attachments/types.ts), an empty file or one whose bytes contradict its
 * declared type refused with a message that says why. The size limit is the
 * caller's to enforce while reading (413 before the bytes are held).
 */
export async function storeAttachment(
  db: Db,
  { userId, bytes, declaredType, name }: { userId: string; bytes: Buffer; declaredType: string | null; name?: string },
): Promise<TAttachment> {
  if (bytes.length === 0) throw new AppError("EMPTY_FILE");
  if (bytes.length > getEnv().ATTACHMENT_MAX_BYTES) {
    throw new AppError("FILE_TOO_LARGE", { args: [attachmentLimitText()] });
  }
  const detected = await detectType(bytes, declaredType);
  if (!detected.ok) throw new AppError("UNSUPPORTED_FILE", { args: [detected.reason] });
  const fileName = name ?? `${isImageType(detected.contentType) ? "image" : "file"}.${EXTENSIONS[detected.contentType] ?? "bin"}`;
  const row = await db.attachment.create({
    data: { userId, name: fileName, contentType: detected.contentType, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), bytes: new Uint8Array(bytes) },
    select: { id: true, name: true, contentType: true, size: true, createdAt: true },
  });
  return serializeAttachment(row);
}

function serializeAttachment(row: { id: string; name: string; contentType: string; size: number; createdAt: Date }): TAttachment {
  const url = attachmentUrl(row.id);
  // The name as written: what Markdown would read as syntax in a link's text (emphasis, code, brackets, HTML, entities) is escaped.
  const label = row.name.replace(/[\\`*_[\]<>&~]/g, "\\$&");
  return {
    id: row.id,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    url,
    markdown: isImageType(row.contentType) ? `![${label}](${url})` : `[${label}](${url})`,
    createdAt: row.createdAt.toISOString(),
  };
}
