import { ATTACHMENTS_PATH } from "@/lib/http/paths";

/**
 * Stores a file pasted, dropped or picked in the editor as an attachment of
 * the signed-in person (POST /api/attachments, with the session cookie) and
 * gives BlockNote the URL to show it from. A refusal (too big, a type not
 * accepted, bytes that are not what they claim) rejects with the server's
 * message, which the editor shows.
 */
export async function uploadAttachment(file: File): Promise<string> {
  const query = file.name ? `?name=${encodeURIComponent(file.name.slice(0, 255))}` : "";
  let res: Response;
  try {
    res = await fetch(`${ATTACHMENTS_PATH}${query}`, {
      method: "POST",
      body: file,
      headers: { "content-type": file.type || "application/octet-stream" },
    });
  } catch {
    throw new Error("The file could not be sent: check the connection and try again");
  }
  const body = (await res.json().catch(() => null)) as { attachment?: { url: string }; error?: string } | null;
  if (!res.ok || !body?.attachment) throw new Error(body?.error ?? `The file could not be stored (${res.status})`);
  return body.attachment.url;
}
