import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isDatabaseUnavailable, isWriteConflict, postgresCode } from "@/lib/errors/database";
import { log } from "@/lib/log";
import { requestIdOf } from "@/lib/server/request-log";

/**
 * The challenge of a 401 (RFC 9110's WWW-Authenticate): the token goes in the
 * X-Session-Token header, so the scheme is named for it, not Bearer (whose
 * challenge sends OAuth clients to look for an authorization server).
 */
const AUTH_SCHEME = 'SessionToken realm="notes"';
/** What an agent should do about a token that failed: in the challenge, the MCP instructions and the docs. */
export const INVALID_TOKEN_ADVICE = "Session tokens are short-lived: mint a new one from the identity service and send it again in X-Session-Token";

type ErrorEntry = { status: number; text: string | ((...args: never[]) => string); means: string | null; headers?: Record<string, string> };

/**
 * Every failure the service answers with: its code, its HTTP status, the text
 * sent as `error` (the contract's texts exact; a function where the text names
 * something), and what it means in the OpenAPI document (null: only where an
 * operation declares it). REST, MCP and the browser's server actions all map
 * an AppError by its code, never by its text.
 */
export const ERRORS = {
  INVALID_NOTE_ID: { status: 400, text: "Invalid note id", means: "malformed request: id, header or URL" },
  INVALID_TAG_ID: { status: 400, text: "Invalid tag id", means: "malformed request: id, header or URL" },
  INVALID_REVISION_ID: { status: 400, text: "Invalid revision id", means: "malformed request: id, header or URL" },
  INVALID_ATTACHMENT_ID: { status: 400, text: "Invalid attachment id", means: "malformed request: id, header or URL" },
  INVALID_IDEMPOTENCY_KEY: { status: 400, text: "Idempotency-Key must be 1 to 255 printable ASCII characters", means: "malformed request: id, header or URL" },
  INVALID_QUERY: { status: 400, text: "Invalid query parameters", means: "invalid query parameters (with details)" },
  INVALID_JSON: { status: 400, text: "Request body must be valid JSON", means: "body is not valid JSON" },
  INVALID_BODY: { status: 400, text: "Invalid request body", means: "body fails the schema (with details)" },
  /** The server refused the HTTP request itself (scripts/lib/server.ts): the text says what was wrong. */
  MALFORMED_REQUEST: { status: 400, text: (detail: string) => detail, means: "malformed request: id, header or URL" },
  /** An MCP tool called with an argument it does not take: named, with those it does. */
  UNKNOWN_ARGUMENTS: {
    status: 400,
    text: (tool: string, unknown: readonly string[], accepted: readonly string[]) =>
      `${tool} does not take ${unknown.map((name) => JSON.stringify(name)).join(", ")}; it takes ${accepted.length === 0 ? "no arguments" : accepted.join(", ")}`,
    means: null,
  },
  EMPTY_FILE: { status: 400, text: "The file is empty", means: null },
  MISSING_TOKEN: { status: 401, text: "Missing X-Session-Token header", means: "no x-session-token header", headers: { "WWW-Authenticate": AUTH_SCHEME } },
  INVALID_TOKEN: {
    status: 401,
    text: (detail: string) => `Invalid session token: ${detail}`,
    means: "session token rejected, expired or not verifiable",
    headers: { "WWW-Authenticate": `${AUTH_SCHEME}, error="invalid_token", error_description="${INVALID_TOKEN_ADVICE}"` },
  },
  USER_NOT_FOUND: { status: 401, text: (baseUrl: string) => `User not found — sign up at ${baseUrl} first`, means: "no account for the verified email (with email)" },
  CROSS_ORIGIN: { status: 403, text: "Cross-origin request refused", means: null },
  NOTE_NOT_FOUND: { status: 404, text: "Note not found", means: "no such resource for this user" },
  TAG_NOT_FOUND: { status: 404, text: "Tag not found", means: "no such resource for this user" },
  REVISION_NOT_FOUND: { status: 404, text: "Revision not found", means: "no such resource for this user" },
  TRASHED_NOTE_NOT_FOUND: { status: 404, text: "Note not found in the trash", means: "no such resource for this user" },
  ATTACHMENT_NOT_FOUND: { status: 404, text: "Attachment not found", means: "no such resource for this user" },
  /** A path that answers only some callers (the development routes), as if it did not exist. */
  NOT_FOUND: { status: 404, text: "Not found", means: null },
  NO_ROUTE: { status: 404, text: (method: string, path: string) => `No route for ${method} ${path}; see GET /api`, means: null },
  ACCOUNT_NOT_FOUND: { status: 404, text: (email: string) => `No account for ${email}`, means: null },
  METHOD_NOT_ALLOWED: { status: 405, text: (method: string, allow: string) => `Method ${method} not allowed; use ${allow}`, means: null },
  REQUEST_TIMEOUT: { status: 408, text: "Request was not received in time", means: "request timeout" },
  TAG_EXISTS: { status: 409, text: "A tag with this name already exists", means: "a tag with this name already exists" },
  NOTE_EXISTS: { status: 409, text: "A note with this id already exists", means: null },
  ACCOUNT_EXISTS: { status: 409, text: (email: string) => `An account for ${email} already exists`, means: null },
  /** One operation of a targeted edit does not apply to the note as it is (lib/notes/edits.ts); nothing was written. */
  EDIT_FAILED: { status: 409, text: (detail: string) => detail, means: null },
  /** A change-feed cursor older than the changes kept (lib/changes): list again, then follow from the new cursor. */
  CURSOR_EXPIRED: {
    status: 410,
    text: (days: number) =>
      `This cursor is older than the changes kept (${days} days): list your notes and tags again, then follow changes from a new cursor (call without since)`,
    means: "cursor expired",
  },
  NOTE_MODIFIED: { status: 412, text: "Note was modified", means: "the note changed since the If-Match version" },
  BODY_TOO_LARGE: { status: 413, text: (limit: string) => `Request body must be at most ${limit}`, means: "body over the size limit" },
  FILE_TOO_LARGE: { status: 413, text: (limit: string) => `The file is over the ${limit} limit`, means: "body over the size limit" },
  URI_TOO_LONG: { status: 414, text: (max: number) => `Request target must be at most ${max} characters`, means: "uri too long" },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    text: "Content-Type must be application/json",
    means: "Content-Type is not application/json (an upload: a type not accepted, or bytes that are not what the Content-Type says)",
  },
  UNSUPPORTED_FILE: { status: 415, text: (reason: string) => reason, means: null },
  CONTENT_TOO_COMPLEX: { status: 422, text: (detail: string) => detail, means: "content too complex" },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    text: "Idempotency-Key was already used with a different request body; use a new key for a new request",
    means: "the Idempotency-Key was already used with a different request body",
  },
  RATE_LIMITED: { status: 429, text: (seconds: number) => `Too many requests — retry after ${seconds} seconds`, means: "rate limited" },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, text: "Request headers are too large", means: "request headers too large" },
  SERVER_CONFIG_ERROR: { status: 500, text: "Server configuration error — contact support", means: "server configuration error" },
  MAIL_NOT_CONFIGURED: { status: 500, text: "Email delivery is not configured", means: null },
  INTERNAL: { status: 500, text: "Internal server error", means: "unexpected server error" },
  SERVICE_UNAVAILABLE: { status: 503, text: "Service temporarily unavailable — retry shortly", means: "database unavailable or overloaded; retry after Retry-After seconds" },
  CONVERSIONS_BUSY: { status: 503, text: "Too many conversions in progress — retry shortly", means: null },
  CONVERSION_SLOWED: { status: 503, text: "The server is too busy to finish this conversion — retry shortly", means: null },
  IDEMPOTENCY_KEY_BUSY: { status: 503, text: "Idempotency-Key is busy — retry shortly", means: null },
  ACCOUNT_WRITES_BUSY: { status: 503, text: "This account's earlier writes are still in progress — retry shortly", means: null },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** What a code's text needs: the arguments of its function, or nothing. */
type TextArgs<C extends ErrorCode> = (typeof ERRORS)[C]["text"] extends (...args: infer A) => string ? A : [];

export type AppErrorOptions<C extends ErrorCode = ErrorCode> = {
  /** Extra top-level body fields the contract names (`details`, `email`). */
  fields?: Record<string, unknown>;
  /** Extra response headers (for example `Allow` on a 405). */
  headers?: Record<string, string>;
  /** Internal cause, logged and never sent. */
  cause?: unknown;
} & (TextArgs<C> extends [] ? { args?: [] } : { args: TextArgs<C> });

/** The text a code sends, given what it names. */
export function errorText<C extends ErrorCode>(code: C, ...args: TextArgs<C>): string {
  const { text }: ErrorEntry = ERRORS[code];
  return typeof text === "string" ? text : (text as (...args: TextArgs<C>) => string)(...args);
}

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** Text sent to the caller as `error`. */
  readonly userMessage: string;
  readonly fields?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: C, ...[options]: TextArgs<C> extends [] ? [AppErrorOptions<C>?] : [AppErrorOptions<C>]) {
    const userMessage = errorText(code, ...((options?.args ?? []) as TextArgs<C>));
    super(userMessage, { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = userMessage;
    this.fields = options?.fields;
    // The code's own headers (a 401's challenge), then the error's.
    const own: ErrorEntry = ERRORS[code];
    this.headers = own.headers || options?.headers ? { ...own.headers, ...options?.headers } : undefined;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

/** True when `err` is an AppError of one of these codes (narrowed to them). */
export function isAppError<C extends ErrorCode>(err: unknown, ...codes: C[]): err is AppError<C> {
  return err instanceof AppError && (codes.length === 0 || (codes as ErrorCode[]).includes(err.code));
}

/** A zod failure as the `details` object of a 400: zod's flattened issues. */
export function validationError(code: "INVALID_QUERY" | "INVALID_BODY", error: z.ZodError): AppError {
  return new AppError(code, {
    fields: { details: z.flattenError(error) },
  });
}

/**
 * The `details` of an error about named fields, in the shape zod's flattened
 * issues have (validationError), so that every 400 reads the same way.
 */
export function fieldDetails(fieldErrors: Record<string, string[]>): { details: { formErrors: string[]; fieldErrors: Record<string, string[]> } } {
  return { details: { formErrors: [], fieldErrors } };
}

/** A method the path does not answer: 405 naming those it does in Allow. */
export function methodNotAllowedError(method: string | undefined, allowed: readonly string[]): AppError {
  const allow = allowed.join(", ");
  return new AppError("METHOD_NOT_ALLOWED", { args: [String(method), allow], headers: { Allow: allow } });
}

/** Over a rate limit: 429 with Retry-After, plus any header fields of the limit's state. */
export function rateLimitedError(retryAfterSeconds: number, headers: Record<string, string> = {}): AppError {
  return new AppError("RATE_LIMITED", {
    args: [retryAfterSeconds],
    headers: { ...headers, "Retry-After": String(retryAfterSeconds) },
  });
}

/** A state-changing request made by another site's page (lib/auth/origin.ts decides which). */
/** The contract's 404 for a note that does not exist or is not the caller's. */
export function noteNotFound(): AppError {
  return new AppError("NOTE_NOT_FOUND");
}

export function crossOriginError(): AppError {
  return new AppError("CROSS_ORIGIN");
}

/** Production settings missing or invalid: the contract's 500, whose body names no setting. */
export function serverConfigError(cause?: unknown): AppError {
  return new AppError("SERVER_CONFIG_ERROR", { cause });
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
 * (lib/errors/database.ts decides which): worth a retry, not a bug. The one 503
 * every route, MCP tool and server action answers for it.
 */
export function unavailableError(cause?: unknown): AppError {
  return new AppError("SERVICE_UNAVAILABLE", {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** What a server action tells the person when the database is unavailable: nothing was lost, try again. */
export const UNAVAILABLE_ACTION_MESSAGE = "The service is temporarily unavailable. Nothing was changed; try again in a moment.";

/** True for anything toErrorResponse answers with 503: callers that are not HTTP routes (server actions) report it as such. */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof AppError) return err.status === 503;
  return isDatabaseUnavailable(err) || isWriteConflict(err);
}

/**
 * Header carrying each request's id. The servers set it on
 * every request and response; a 500 logs it and names it in its body, so a
 * caller's report leads to the log line.
 */
export const REQUEST_ID_HEADER = "x-request-id";

const assignedIds = new WeakMap<Request, string>();

/**
 * The id a request is answered under (X-Request-Id) and named by in logs and
 * 500s: the one the server set on it, or the caller's when sane; otherwise one
 * made for it (`next dev` sets none), the same for every ask of one request.
 */
export function requestIdFor(req: Request | undefined): string {
  if (!req) return randomUUID();
  let id = assignedIds.get(req);
  if (id === undefined) {
    id = requestIdOf(req.headers.get(REQUEST_ID_HEADER));
    assignedIds.set(req, id);
  }
  return id;
}

export type ErrorParts = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/**
 * Maps anything thrown to status, headers and JSON body: the one place
 * unknown errors become a logged 500 with the request's id.
 */
export function toErrorParts(err: unknown, req?: Request): ErrorParts {
  const parts = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ErrorParts => ({
    status,
    headers: { ...NO_STORE, ...(req ? { "X-Request-Id": requestIdFor(req) } : {}), ...headers },
    body,
  });
  if (err instanceof AppError) {
    if (err.status < 500) return parts(err.status, { error: err.userMessage, ...err.fields }, err.headers);
    const requestId = requestIdFor(req);
    log.error("request.failed", { requestId, code: err.code, cause: describe(err.cause) });
    // Every 503 says when to come back.
    const retry: Record<string, string> = err.status === 503 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {};
    // The contract's own 500 keeps its exact body; the id still travels in the header.
    const body = err.code === "SERVER_CONFIG_ERROR" ? { error: err.userMessage } : { error: err.userMessage, ...err.fields, requestId };
    return parts(err.status, body, { ...retry, ...err.headers, "X-Request-Id": requestId });
  }
  const requestId = requestIdFor(req);
  if (isDatabaseUnavailable(err) || isWriteConflict(err)) {
    log.error("database.unavailable", { requestId, code: postgresCode(err), cause: describe(err) });
    const unavailable = unavailableError(err);
    return parts(unavailable.status, { error: unavailable.userMessage, requestId }, { ...unavailable.headers, "X-Request-Id": requestId });
  }
  log.error("request.unhandled", { requestId, cause: describe(err), stack: err instanceof Error ? err.stack : undefined });
  return parts(500, { error: errorText("INTERNAL"), requestId }, { "X-Request-Id": requestId });
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
