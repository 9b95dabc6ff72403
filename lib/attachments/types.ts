import { fileTypeFromBuffer } from "file-type";

/** Images shown in a note (served inline). SVG is not among them: it can carry script. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** Files kept with a note and served as downloads, recognised by their bytes. */
const BINARY_FILE_TYPES = ["application/pdf", "application/zip"] as const;
/** Text files: no signature in their bytes, so taken as declared when they are UTF-8 text. */
const TEXT_FILE_TYPES = ["text/plain", "text/markdown", "text/csv", "application/json"] as const;

export const ACCEPTED_TYPES: readonly string[] = [...IMAGE_TYPES, ...BINARY_FILE_TYPES, ...TEXT_FILE_TYPES];

export const isImageType = (type: string) => (IMAGE_TYPES as readonly string[]).includes(type);

/** What the bytes are, or why they cannot be kept: a message for the person or agent that sent them. */
export type Detected = { ok: true; contentType: string } | { ok: false; reason: string };

const mediaType = (header: string | null) => (header ?? "").split(";")[0]!.trim().toLowerCase();
const ALIASES: Record<string, string> = { "image/jpg": "image/jpeg", "text/x-markdown": "text/markdown", "application/x-zip-compressed": "application/zip" };

/**
 * The type of an upload, decided by its bytes: a declared type the bytes
 * contradict (a "PNG" that is HTML) is refused with what they were found to
 * be; no declared type, or application/octet-stream, takes what the bytes are.
 */
export async function detectType(bytes: Uint8Array, declaredHeader: string | null): Promise<Detected> {
  const declaredRaw = mediaType(declaredHeader);
  const declared = ALIASES[declaredRaw] ?? declaredRaw;
  const unspecified = declared === "" || declared === "application/octet-stream";
  if (declared === "image/svg+xml") return { ok: false, reason: "SVG images are not accepted (they can carry scripts): upload PNG, JPEG, GIF or WebP" };
  const found = await fileTypeFromBuffer(bytes);
  if (found) {
    if (!ACCEPTED_TYPES.includes(found.mime)) return { ok: false, reason: `${found.mime} files are not accepted; accepted: ${ACCEPTED_TYPES.join(", ")}` };
    if (!unspecified && declared !== found.mime) return { ok: false, reason: `The file's bytes are ${found.mime}, not the ${declaredRaw} it was sent as` };
    return { ok: true, contentType: found.mime };
  }
  // No signature: only text, taken as declared (plain text when unspecified).
  const asText = unspecified ? "text/plain" : declared;
  if (!(TEXT_FILE_TYPES as readonly string[]).includes(asText)) {
    return { ok: false, reason: `The file's bytes are not ${declaredRaw}${(IMAGE_TYPES as readonly string[]).includes(asText) ? " (not an image)" : ""}; accepted: ${ACCEPTED_TYPES.join(", ")}` };
  }
  if (!isUtf8Text(bytes)) return { ok: false, reason: `The file is sent as ${asText} but is not UTF-8 text` };
  return { ok: true, contentType: asText };
}

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
