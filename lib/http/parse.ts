import { z } from "zod";
import { AppError, fieldDetails, NO_STORE, validationError } from "@/lib/errors";
import { UUID_PATTERN } from "@/lib/db/uuid";
import { BodyTooLargeError, readBodyText } from "@/lib/server/request-body";
import { UNSTORABLE, UNSTORABLE_MESSAGE } from "@/lib/db/storable-text";

/** Largest JSON body accepted on writes. */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () =>
  new AppError("BODY_TOO_LARGE", { args: [`${MAX_BODY_BYTES} bytes`] });

/**
 * Reads a JSON body and validates it: 415 without a JSON Content-Type, 413 over
 * the size limit (checked while streaming, not only by Content-Length), 400
 * with the contract's texts for bad JSON or a failed schema.
 */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const contentType = req.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE");
  }
  const text = await readBodyText(req, MAX_BODY_BYTES).catch((error: unknown) => {
    throw error instanceof BodyTooLargeError ? tooLarge() : error;
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError("INVALID_BODY", parsed.error);
  return parsed.data;
}

/** A route that reads no query parameters: any it is sent is refused, by name. */
export const NO_QUERY = z.object({});

/**
 * Validates URL query parameters (first value of each name) against a schema.
 * A parameter the schema does not name is a 400 Invalid query parameters
 * naming it and those the route accepts (a misspelt `serach` or `tagid` would
 * otherwise list every note, unfiltered); so is any parameter holding a NUL
 * (`%00`), which no PostgreSQL text can.
 */
export function parseQuery<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const params: Record<string, string> = {};
  const refused: Record<string, string[]> = {};
  const accepted = Object.keys(schema.shape);
  for (const [name, value] of new URL(req.url).searchParams) {
    // Every value of a name, though only the first is taken.
    if (UNSTORABLE.test(name) || UNSTORABLE.test(value)) refused[name] = [UNSTORABLE_MESSAGE];
    else if (!accepted.includes(name)) refused[name] = [unknownNameMessage("parameter", accepted)];
    if (!(name in params)) params[name] = value;
  }
  return parseQueryValues(schema, params, refused);
}

/**
 * Validates query values given as values (an MCP call's arguments) as
 * parseQuery validates a URL's: a name or string value no PostgreSQL text can
 * hold is a 400 naming it, before the schema.
 */
export function parseQueryValues<S extends z.ZodObject>(schema: S, values: Record<string, unknown>, refused: Record<string, string[]> = {}): z.output<S> {
  for (const [name, value] of Object.entries(values)) {
    if (UNSTORABLE.test(name) || (typeof value === "string" && UNSTORABLE.test(value))) refused[name] = [UNSTORABLE_MESSAGE];
  }
  if (Object.keys(refused).length > 0) {
    throw new AppError("INVALID_QUERY", { fields: fieldDetails(refused) });
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw validationError("INVALID_QUERY", parsed.error);
  return parsed.data;
}

/** Why a parameter or argument no schema names was refused, and what would be taken. */
export function unknownNameMessage(kind: "parameter" | "argument", accepted: readonly string[]): string {
  return `Unknown ${kind}; accepted: ${accepted.length === 0 ? "none" : accepted.join(", ")}`;
}

/** The 400 of each kind of id that is not a UUID. */
export type InvalidIdCode = "INVALID_NOTE_ID" | "INVALID_TAG_ID" | "INVALID_REVISION_ID" | "INVALID_ATTACHMENT_ID";

/** Validates a path id, answering the given code's 400 when it is not a UUID. */
export function parseId(value: string, code: InvalidIdCode): string {
  if (!UUID_PATTERN.test(value)) throw new AppError(code);
  return value.toLowerCase();
}

/**
 * The media type of `offered` the Accept header ranks highest (RFC 9110
 * quality values, the most specific range deciding each type). Ties and a
 * missing or unmatched header go to the first offered, the default.
 */
export function preferredMediaType<T extends string>(accept: string | null, offered: readonly [T, ...T[]]): T {
  if (!accept?.trim()) return offered[0];
  const ranges = accept.split(",").flatMap((part) => {
    const [range, ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!range || !/^[^/\s]+\/[^/\s]+$/.test(range)) return [];
    const qParam = params.find((param) => param.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return Number.isFinite(q) ? [{ range, q: Math.min(Math.max(q, 0), 1) }] : [];
  });
  const quality = (type: string): number => {
    const [major] = type.split("/");
    const specificity = (range: string) => (range === type ? 3 : range === `${major}/*` ? 2 : range === "*/*" ? 1 : 0);
    let best = { specificity: 0, q: 0 };
    for (const { range, q } of ranges) {
      const s = specificity(range);
      if (s > best.specificity) best = { specificity: s, q };
    }
    return best.q;
  };
  let chosen = offered[0];
  let chosenQ = quality(chosen);
  for (const type of offered.slice(1)) {
    const q = quality(type);
    if (q > chosenQ) [chosen, chosenQ] = [type, q];
  }
  return chosen;
}

const MARKDOWN_CONTENT_TYPE = "text/markdown; charset=utf-8";

/**
 * True when the request's If-None-Match names `etag` (or `*`): the caller's
 * copy is current, a 304 answers it. RFC 9110's weak comparison: `W/"v3"`
 * names "v3" too.
 */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  return req.headers.get("if-none-match")?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*") ?? false;
}

/** A Markdown response; never cached, like every API response. */
export function markdownResponse(markdown: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(markdown, {
    status: init.status ?? 200,
    headers: { ...NO_STORE, "Content-Type": MARKDOWN_CONTENT_TYPE, ...init.headers },
  });
}
