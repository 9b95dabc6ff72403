import { z } from "zod";
import type { AuthContext } from "@/lib/auth/authenticate";
import { withAuth, type RouteContext } from "@/lib/auth/with-auth";
import type { Db } from "@/lib/db/client";
import { methodNotAllowedError, toErrorResponse } from "@/lib/errors";
import { NO_QUERY, parseId, parseJsonBody, parseQuery, type InvalidIdCode } from "@/lib/http";
import { readIdempotencyKey } from "@/lib/idempotency/idempotency";

type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Request headers a route reads beyond the session token (described in lib/api/openapi.ts). */
export type ApiRequestHeader = "If-Match" | "If-None-Match" | "Idempotency-Key";
/** Response headers a route may send. */
export type ApiResponseHeader = "ETag" | "Idempotent-Replayed" | "RateLimit" | "RateLimit-Policy" | "Retry-After" | "WWW-Authenticate";

/** A response described beyond its JSON body. */
export type ApiResponse = {
  /** JSON body schema (null: no body, or the shared error body for 4xx/5xx). */
  body: z.ZodType | null;
  description?: string;
  /** Also offered as `text/markdown` (Accept header or ?format=markdown). */
  markdown?: boolean;
  /** Bytes of these media types, rather than JSON (an attachment). */
  binary?: readonly string[];
  headers?: readonly ApiResponseHeader[];
};

/** What the OpenAPI document and the API index say of an operation. */
export type ApiRoute = {
  method: HttpMethod;
  /** Stable name for generated clients; derived from method and path when absent. */
  operationId?: string;
  /** OpenAPI-style path, `{name}` for a path parameter. */
  path: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body of bytes (an upload) instead of JSON: the media types it may be. */
  rawBody?: { types: readonly string[]; description: string };
  headers?: readonly ApiRequestHeader[];
  /**
   * Status → response body schema (null: no body), or a fuller ApiResponse.
   * Success statuses and route-specific failures (409, 412, 422) go here;
   * the failures every route of its kind can answer (400, 401, 404, 413, 415,
   * 500, 503, …) are added from lib/errors.ts's ERRORS by
   * lib/api/openapi.ts.
   */
  responses: Record<number, z.ZodType | null | ApiResponse>;
  /** Statuses the MCP transport itself answers, with a JSON-RPC error body rather than `{ error }`. */
  jsonRpcErrors?: readonly number[];
  /** Answers without a session token. */
  public?: boolean;
  /** Also takes the token as `Authorization: Bearer`, and refuses browser requests from origins not allowed (the MCP endpoint). */
  mcpTransport?: boolean;
};

type RouteHandler = (req: Request, ctx: RouteContext<Record<string, string>>) => Promise<Response>;

/** One endpoint: its description (for the document and the index) and the route handler derived from it. */
export type Operation = ApiRoute & {
  /** The MCP tool (lib/mcp/tools.ts) that does the same for an agent over /api/mcp. */
  mcp?: { tool: string };
  handle: RouteHandler;
};

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What an operation's `run` receives: the request as parsed by its definition, and whom it acts for. */
type RunArgs<Q, B, K extends string> = {
  req: Request;
  /** The path's ids, checked and lower-cased. */
  params: Record<K, string>;
  query: Q;
  body: B;
  /** The Idempotency-Key header, checked (only read when the operation declares it). */
  idempotencyKey: string | null;
  user: AuthContext;
  db: Db;
};

type OperationDefinition<Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, K extends string> = Omit<ApiRoute, "query" | "body" | "public"> & {
  query?: Q;
  body?: B;
  /** Each path parameter, with the 400 for a value that is no id. */
  ids?: Record<K, InvalidIdCode>;
  /** The body is the handler's to read (the MCP transport answers its own JSON-RPC errors); `body` only describes it. */
  bodyReadByRun?: boolean;
  /** Also the browser's session (see WithAuthOptions). */
  browserSession?: boolean;
  mcp?: { tool: string };
  run(args: RunArgs<Parsed<Q>, Parsed<B>, K>): Promise<Response>;
};

/**
 * Defines an endpoint once: the route handler (behind withAuth) parses the
 * path's ids, the query, a declared Idempotency-Key and the JSON body, in that
 * order, and hands them to `run`; the rest describes it to the OpenAPI
 * document, the API index and the route files (lib/api/routes.ts).
 */
export function defineOperation<Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined, K extends string = never>(
  definition: OperationDefinition<Q, B, K>,
): Operation {
  const { ids, bodyReadByRun, browserSession, run, ...route } = definition;
  const handle = withAuth<Record<string, string>>(
    async ({ req, params, user, db }) => {
      const checked = Object.fromEntries(Object.entries<InvalidIdCode>(ids ?? ({} as Record<K, InvalidIdCode>)).map(([name, code]) => [name, parseId(params[name] ?? "", code)]));
      const query = parseQuery(req, route.query ?? NO_QUERY);
      const idempotencyKey = route.headers?.includes("Idempotency-Key") ? readIdempotencyKey(req) : null;
      const body = route.body && !bodyReadByRun ? await parseJsonBody(req, route.body) : undefined;
      return run({ req, params: checked as Record<K, string>, query: query as Parsed<Q>, body: body as Parsed<B>, idempotencyKey, user, db });
    },
    { browserSession, bearer: route.mcpTransport, checkOrigin: route.mcpTransport },
  );
  return { ...route, handle };
}

/** An endpoint that takes no token (the health check): `run` maps its own failures through the shared mapper. */
export function definePublicOperation(definition: Omit<ApiRoute, "public" | "query" | "body"> & { run(req: Request): Promise<Response> }): Operation {
  const { run, ...route } = definition;
  const handle = async (req: Request): Promise<Response> => {
    try {
      return await run(req);
    } catch (err) {
      return toErrorResponse(err, req);
    }
  };
  return { ...route, public: true, handle };
}

// The order Allow headers name methods in.
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const satisfies readonly HttpMethod[];

/**
 * A route file's exports for the operations of one path: each method's
 * handler, a JSON 405 with an Allow header for the others (Next.js would answer
 * an empty one), and OPTIONS naming what the path answers (Next.js's own would
 * list the 405 handlers too).
 */
export function routeHandlers(...operations: Operation[]): Record<(typeof METHODS)[number] | "OPTIONS", RouteHandler> {
  const path = operations[0]?.path;
  if (!path || operations.some((op) => op.path !== path)) throw new Error(`routeHandlers: operations of one path, got ${operations.map((op) => op.path).join(", ")}`);
  const allowed = METHODS.filter((method) => operations.some((op) => op.method === method));
  const notAllowed = async (req: Request): Promise<Response> => toErrorResponse(methodNotAllowedError(req.method, allowed), req);
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const options = async (): Promise<Response> => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } });
  const handlers = Object.fromEntries(METHODS.map((method) => [method, operations.find((op) => op.method === method)?.handle ?? notAllowed]));
  return { ...(handlers as Record<(typeof METHODS)[number], RouteHandler>), OPTIONS: options };
}
