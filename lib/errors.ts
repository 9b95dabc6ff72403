import { z } from "zod";
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
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
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
  internal: "Internal server error",
  unavailable: "Service temporarily unavailable — retry shortly",
} as const;

/** A zod failure as the `details` object of a 400: zod's flattened issues. */
export function validationError(code: "INVALID_QUERY" | "INVALID_BODY", error: z.ZodError): AppError {
  return new AppError(code, {
    userMessage: code === "INVALID_QUERY" ? MESSAGES.invalidQuery : MESSAGES.invalidBody,
    fields: { details: z.flattenError(error) },
  });
}

export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** JSON response that is never cached: every route answers per request. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

// Connection-level failures of PostgreSQL/PGlite and of Prisma's adapters: the
// database is down or overloaded, which is worth a retry, not a bug.
const UNAVAILABLE_PATTERN = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|too many clients|database system is (starting up|shutting down)|Can't reach database|DatabaseNotReachable|Timed out fetching a new connection/i;

function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === "P1001" || code === "P1002" || code === "P2024" || code === "ECONNREFUSED") return true;
  return UNAVAILABLE_PATTERN.test(err.message);
}

/** Maps anything thrown by a handler to the contract's JSON error response. */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof AppError) {
    if (err.status >= 500) log.error("request.failed", { code: err.code, cause: describe(err.cause) });
    return jsonResponse({ error: err.userMessage, ...err.fields }, { status: err.status, headers: err.headers });
  }
  if (isDatabaseUnavailable(err)) {
    log.error("database.unavailable", { cause: describe(err) });
    return jsonResponse({ error: MESSAGES.unavailable }, { status: 503, headers: { "Retry-After": "1" } });
  }
  log.error("request.unhandled", { cause: describe(err), stack: err instanceof Error ? err.stack : undefined });
  return jsonResponse({ error: MESSAGES.internal }, { status: 500 });
}

function describe(err: unknown): string | undefined {
  if (err === undefined) return undefined;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
