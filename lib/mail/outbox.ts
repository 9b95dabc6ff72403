import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/** A message as the local outbox keeps it: one JSON file per message. */
const ZOutboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** The links the message exists for (verify, reset), so the outbox page can offer them as buttons. */
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  sentAt: z.iso.datetime(),
});
export type OutboxMessage = z.infer<typeof ZOutboxMessageSchema>;

export async function writeOutboxMessage(dir: string, message: Omit<OutboxMessage, "id" | "sentAt">): Promise<OutboxMessage> {
  await mkdir(dir, { recursive: true });
  const sentAt = new Date();
  // Names sort by time, so the newest message is the last file.
  const id = `${sentAt.getTime().toString().padStart(15, "0")}-${randomUUID()}`;
  const stored: OutboxMessage = { ...message, id, sentAt: sentAt.toISOString() };
  await writeFile(path.join(dir, `${id}.json`), JSON.stringify(stored, null, 2), { mode: 0o600 });
  return stored;
}

/** The newest messages first; unreadable files are skipped. */
export async function listOutboxMessages(dir: string, { limit = 50 }: { limit?: number } = {}): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const newest = names.filter((name) => name.endsWith(".json")).sort().reverse().slice(0, limit);
  const messages = await Promise.all(
    newest.map(async (name) => {
      try {
        return ZOutboxMessageSchema.parse(JSON.parse(await readFile(path.join(dir, name), "utf8")));
      } catch {
        return null;
      }
    }),
  );
  return messages.filter((message): message is OutboxMessage => message !== null);
}
