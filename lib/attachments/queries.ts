import type { Db } from "@/lib/db/client";

export type AttachmentBytes = { name: string; contentType: string; size: number; sha256: string; bytes: Uint8Array };

/** The owner's attachment with its bytes, or null: another account's is as absent as an unknown id. */
export async function readAttachment(db: Db, { id, userId }: { id: string; userId: string }): Promise<AttachmentBytes | null> {
  return db.attachment.findFirst({ where: { id, userId }, select: { name: true, contentType: true, size: true, sha256: true, bytes: true } });
}
