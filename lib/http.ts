import { z } from "zod";
import { AppError, MESSAGES, validationError } from "@/lib/errors";

/** Largest JSON body accepted on writes. */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () =>
  new AppError("PAYLOAD_TOO_LARGE", { userMessage: `Request body must be at most ${MAX_BODY_BYTES} bytes` });

/**
 * Reads a JSON body and validates it: 415 without a JSON Content-Type, 413 over
 * the size limit (checked while streaming, not only by Content-Length), 400
 * with the contract's texts for bad JSON or a failed schema.
 */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const contentType = req.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", { userMessage: "Content-Type must be application/json" });
  }
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();

  const text = await readTextWithLimit(req, MAX_BODY_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON", { userMessage: MESSAGES.invalidJson });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError("INVALID_BODY", parsed.error);
  return parsed.data;
}

async function readTextWithLimit(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Validates URL query parameters (first value of each name) against a schema. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params: Record<string, string> = {};
  for (const [name, value] of new URL(req.url).searchParams) {
    if (!(name in params)) params[name] = value;
  }
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw validationError("INVALID_QUERY", parsed.error);
  return parsed.data;
}

/** Validates a path id, answering the given 400 text when it is not a UUID. */
export function parseId(value: string, message: string): string {
  if (!UUID_PATTERN.test(value)) throw new AppError("BAD_REQUEST", { userMessage: message });
  return value.toLowerCase();
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
