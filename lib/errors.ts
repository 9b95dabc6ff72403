import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isDatabaseUnavailable, isWriteConflict, postgresCode } from "@/lib/db-failures";
import { log } from "@/lib/log";

/** Every failure the API can answer with, and its HTTP status. One table, one mapper. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_QUERY: 400,
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  MISSING_TOKEN: 401,
  INVALID_TOKEN: 401,
  USER_NOT_FOUND: 401,
  CROSS_ORIGIN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** One operation of a targeted edit does not apply to the note as it is (lib/notes/edits.ts); nothing was written. */
  EDIT_FAILED: 409,
  /** A change-feed cursor older than the changes kept (lib/changes): list again, then follow from the new cursor. */
  CURSOR_EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONTENT_TOO_COMPLEX: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  REQUEST_HEADERS_TOO_LARGE: 431,
  SERVER_CONFIG_ERROR: 500,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type AppErrorOptions = {
  /** Text sent to the caller as `error`. */
  userMessage: string;
  /** Extra top-level body fields the contract names (`details`, `email`). */
  fields?: Record<string, unknown>;
  /** Extra response headers (for example `Allow` on a 405). */
  headers?: Record<string, string>;
  /** Internal cause, logged and never sent. */
  cause?: unknown;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly fields?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions) {
    super(options.userMessage, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The exact texts of the notes contract. */
export const MESSAGES = {
  invalidQuery: "Invalid query parameters",
  invalidJson: "Request body must be valid JSON",
  invalidBody: "Invalid request body",
  missingToken: "Missing X-Session-Token header",
  invalidToken: (detail: string) => `Invalid session token: ${detail}`,
  userNotFound: (baseUrl: string) => `User not found — sign up at ${baseUrl} first`,
  serverConfig: "Server configuration error — contact support",
  noteNotFound: "Note not found",
  invalidNoteId: "Invalid note id",
  tagNotFound: "Tag not found",
  invalidTagId: "Invalid tag id",
  tagExists: "A tag with this name already exists",
  noteModified: "Note was modified",
  trashedNoteNotFound: "Note not found in the trash",
  revisionNotFound: "Revision not found",
  invalidRevisionId: "Invalid revision id",
  noteExists: "A note with this id already exists",
  rateLimited: (retryAfterSeconds: number) => `Too many requests — retry after ${retryAfterSeconds} seconds`,
  crossOrigin: "Cross-origin request refused",
  methodNotAllowed: (method: string, allow: string) => `Method ${method} not allowed; use ${allow}`,
  internal: "Internal server error",
  unavailable: "Service temporarily unavailable — retry shortly",
  attachmentNotFound: "Attachment not found",
  invalidAttachmentId: "Invalid attachment id",
  cursorExpired: (days: number) => `This cursor is older than the changes kept (${days} days): list your notes and tags again, then follow changes from a new cursor (call without since)`,
  cursorAhead: "This cursor is ahead of your changes: use the cursor an answer of this feed gave you",
} as const;

/** A zod failure as the `details` object of a 400: zod's flattened issues. */
export function validationError(code: "INVALID_QUERY" | "INVALID_BODY", error: z.ZodError): AppError {
  return new AppError(code, {
    userMessage: code === "INVALID_QUERY" ? MESSAGES.invalidQuery : MESSAGES.invalidBody,
    fields: { details: z.flattenError(error) },
  });
}

/** A method the path does not answer: 405 naming those it does in Allow. */
export function methodNotAllowedError(method: string | undefined, allowed: readonly string[]): AppError {
  const allow = allowed.join(", ");
  return new AppError("METHOD_NOT_ALLOWED", { userMessage: MESSAGES.methodNotAllowed(String(method), allow), headers: { Allow: allow } });
}

/** Over a rate limit: 429 with Retry-After, plus any header fields of the limit's state. */
export function rateLimitedError(retryAfterSeconds: number, headers: Record<string, string> = {}): AppError {
  return new AppError("RATE_LIMITED", {
    userMessage: MESSAGES.rateLimited(retryAfterSeconds),
    headers: { ...headers, "Retry-After": String(retryAfterSeconds) },
  });
}

/** A state-changing request made by another site's page (lib/auth/origin.ts decides which). */
/** The contract's 404 for a note that does not exist or is not the caller's. */
export function noteNotFound(): AppError {
  return new AppError("NOT_FOUND", { userMessage: MESSAGES.noteNotFound });
}

export function crossOriginError(): AppError {
  return new AppError("CROSS_ORIGIN", { userMessage: MESSAGES.crossOrigin });
}

/** Production settings missing or invalid: the contract's 500, whose body names no setting. */
export function serverConfigError(cause?: unknown): AppError {
  return new AppError("SERVER_CONFIG_ERROR", { userMessage: MESSAGES.serverConfig, cause });
}

export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** JSON response that is never cached: every route answers per request. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

/**
 * A JSON body already serialized (by the database, say), answered like
 * jsonResponse's. Given in parts (a page's notes, say), it is written straight
 * into one buffer as UTF-8, never joined into one string first: a string of a
 * large page would be a large allocation in V8's old generation on every
 * request, freed only by full collections.
 */
export function jsonTextResponse(json: string | readonly string[], init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const body = typeof json === "string" ? json : utf8Concat(json);
  return new Response(body, { status: init.status ?? 200, headers: { "Content-Type": "application/json", ...NO_STORE, ...init.headers } });
}

function utf8Concat(parts: readonly string[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const part of parts) offset += buffer.write(part, offset);
  return buffer;
}

/** Seconds a client should wait before retrying after a 503 of the database. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The database is down, restarting, read-only, out of connections or over a
 * time bound, or a write lost a deadlock race more often than it is retried
 * (lib/db-failures.ts decides which): worth a retry, not a bug. The one 503
 * every route, MCP tool and server action answers for it.
 */
export function unavailableError(cause?: unknown): AppError {
  return new AppError("SERVICE_UNAVAILABLE", {
    userMessage: MESSAGES.unavailable,
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** What a server action tells the person when the database is unavailable: nothing was lost, try again. */
export const UNAVAILABLE_ACTION_MESSAGE = "The service is temporarily unavailable. Nothing was changed; try again in a moment.";

/** True for anything toErrorResponse answers with 503: callers that are not HTTP routes (server actions) report it as such. */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof AppError) return err.code === "SERVICE_UNAVAILABLE";
  return isDatabaseUnavailable(err) || isWriteConflict(err);
}

/**
 * Header carrying each request's id. The server (scripts/serve.ts) sets it on
 * every request and response; a 500 logs it and names it in its body, so a
 * caller's report leads to the log line.
 */
export const REQUEST_ID_HEADER = "x-request-id";

/** The request's id as the server assigned it; a fresh one when the app runs without it. */
function requestIdOf(req: Request | undefined): string {
  return req?.headers.get(REQUEST_ID_HEADER) ?? randomUUID();
}

export type ErrorParts = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/**
 * Maps anything thrown to status, headers and JSON body: the one place
 * unknown errors become a logged 500 with the request's id.
 */
export function toErrorParts(err: unknown, req?: Request): ErrorParts {
  const parts = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ErrorParts => ({
    status,
    headers: { ...NO_STORE, ...headers },
    body,
  });
  if (err instanceof AppError) {
    if (err.status < 500) return parts(err.status, { error: err.userMessage, ...err.fields }, err.headers);
    const requestId = requestIdOf(req);
    log.error("request.failed", { requestId, code: err.code, cause: describe(err.cause) });
    // Every 503 says when to come back.
    const retry: Record<string, string> = err.status === 503 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {};
    // The contract's own 500 keeps its exact body; the id still travels in the header.
    const body = err.code === "SERVER_CONFIG_ERROR" ? { error: err.userMessage } : { error: err.userMessage, ...err.fields, requestId };
    return parts(err.status, body, { ...retry, ...err.headers, "X-Request-Id": requestId });
  }
  const requestId = requestIdOf(req);
  if (isDatabaseUnavailable(err) || isWriteConflict(err)) {
    log.error("database.unavailable", { requestId, code: postgresCode(err), cause: describe(err) });
    const unavailable = unavailableError(err);
    return parts(unavailable.status, { error: unavailable.userMessage, requestId }, { ...unavailable.headers, "X-Request-Id": requestId });
  }
  log.error("request.unhandled", { requestId, cause: describe(err), stack: err instanceof Error ? err.stack : undefined });
  return parts(500, { error: MESSAGES.internal, requestId }, { "X-Request-Id": requestId });
}

/** Maps anything thrown by a handler to the contract's JSON error response (see toErrorParts). */
export function toErrorResponse(err: unknown, req?: Request): Response {
  const { status, headers, body } = toErrorParts(err, req);
  return Response.json(body, { status, headers });
}

function describe(err: unknown): string | undefined {
  if (err === undefined) return undefined;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
