import { z } from "zod";
import type { AuthContext } from "@/lib/auth/authenticate";
import { withAuth, type RouteContext } from "@/lib/auth/with-auth";
import { agentAuthor, type RevisionAuthor } from "@/lib/db/author";
import type { Db, Transaction } from "@/lib/db/client";
import { accountWrite, writeTransaction } from "@/lib/db/transaction";
import { jsonResponse, jsonTextResponse, methodNotAllowedError, requestIdFor, toErrorResponse, validationError } from "@/lib/errors";
import { markdownResponse, NO_QUERY, parseId, parseJsonBody, parseQuery, parseQueryValues, type InvalidIdCode } from "@/lib/http/parse";
import { idempotent, readIdempotencyKey } from "@/lib/idempotency/idempotency";
import { versionFromIfMatch } from "@/lib/notes/etag";

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
   * 500, 503, …) are added from lib/errors/index.ts's ERRORS by
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

/** Whom an operation acts for, whichever surface the call came through. */
export type Caller = {
  userId: string;
  email: string;
  db: Db;
  /** Who the history records for the writes: an agent through REST or MCP, or the person in the browser. */
  author: RevisionAuthor;
  /** The HTTP request, over REST only: what only HTTP carries (Accept, If-None-Match, a raw body, the client going away). */
  req?: Request;
};

/** An operation's input, as each surface hands it over after its one parse. */
export type OperationInput<Q = unknown, B = unknown, K extends string = string> = {
  /** The ids the operation acts on (path parameters over REST), checked and lower-cased. */
  params: Record<K, string>;
  query: Q;
  body: B;
  /** The version a write must find: REST's If-Match, MCP's ifVersion or etag. */
  ifVersion: number | undefined;
};

/**
 * An operation's data as an answer, before it is an HTTP response: REST sends
 * it, and an MCP tool result says the same (lib/mcp/tools.ts).
 */
export type Answer = {
  status: number;
  /** The JSON body; or `json`, the same already as text (written by the database). */
  body?: unknown;
  json?: string | readonly string[];
  /** A Markdown body instead; `facts` is what an MCP result gives beside it (the note's id, title, version). */
  markdown?: string;
  facts?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** An MCP tool: an operation offered to agents under a name (lib/mcp/tools.ts makes the tool). */
export type McpTool = {
  tool: string;
  title: string;
  description: string;
  readOnly?: boolean;
  destructive?: boolean;
  /** Arguments' descriptions where the tool words them apart from the REST parameter (format's default differs, say). */
  describe?: Record<string, string>;
  /** Values for arguments the call leaves out. */
  defaults?: Record<string, unknown>;
};

/** Who may call an operation: an agent with a session token (REST, MCP), the person signed in to the browser (server actions). */
type CallerKind = "token" | "session";

/** An operation apart from its HTTP route: what every surface (REST, MCP, server actions) is generated from. */
export type OperationCore = {
  callers: readonly CallerKind[];
  /** Each id it acts on, with the 400 for a value that is no id. */
  ids?: Record<string, InvalidIdCode>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Takes the version a write must find (If-Match over REST, ifVersion or etag over MCP). */
  condition?: boolean;
  /** The MCP tool that offers it; an operation without one is REST's only. */
  mcp?: McpTool;
  run(caller: Caller, input: OperationInput): Promise<unknown>;
  /** The data as an answer (REST's status, body and headers); a Response where only HTTP can say it (bytes, a 304). */
  answer(data: unknown): Answer | Response;
};

type RouteHandler = (req: Request, ctx: RouteContext<Record<string, string>>) => Promise<Response>;

/** One endpoint: what the document and the index say of it, the operation, and the route handler derived from both. */
export type Operation = ApiRoute & OperationCore & { handle: RouteHandler };

/** An operation no HTTP route offers (an MCP tool's own), declared so in the tool table (lib/mcp/tool-table.ts). */
export type McpOnlyOperation = OperationCore & { mcp: McpTool; mcpOnly: true };

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

type CoreDefinition<Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, K extends string, O> = {
  /** Who may call it; a token only by default. */
  callers?: readonly CallerKind[];
  query?: Q;
  body?: B;
  /** Each id, with the 400 for a value that is no id. */
  ids?: Record<K, InvalidIdCode>;
  mcp?: McpTool;
  /** Does the operation: returns its data or throws AppError. */
  run?(caller: Caller, input: OperationInput<Parsed<Q>, Parsed<B>, K>): Promise<O>;
  /**
   * A create an Idempotency-Key makes safe to retry over REST: `write` runs in
   * the write transaction the surface opens (so a key's stored answer commits
   * with it), after `prepare` ran outside it (a Markdown conversion).
   */
  create?: {
    /** Stored with each key: a new scope would forget the keys already given. */
    scope: string;
    prepare?(body: Parsed<B>): Promise<Parsed<B>>;
    write(tx: Transaction, caller: Caller, input: OperationInput<Parsed<Q>, Parsed<B>, K>): Promise<O>;
  };
  /** The data as an answer; by default, JSON with the operation's one success status (none for a 204). */
  answer?(data: O): Answer | Response;
};

type OperationDefinition<Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, K extends string, O> = Omit<ApiRoute, "query" | "body" | "public"> &
  CoreDefinition<Q, B, K, O> & {
    /** The body is the handler's to read (the MCP transport answers its own JSON-RPC errors); `body` only describes it. */
    bodyReadByRun?: boolean;
    /** The route also takes the browser's session cookie, for what a page reaches directly (an image, the open editor's check); see WithAuthOptions. */
    browserSession?: boolean;
  };

/** The data, unchanged, as JSON with the one success status the responses declare (no body for 204). */
function defaultAnswer(responses: ApiRoute["responses"]): (data: unknown) => Answer {
  const status = Number(Object.keys(responses).find((code) => Number(code) < 300) ?? 200);
  return (data) => (status === 204 ? { status } : { status, body: data });
}

function coreOf<Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, K extends string, O>(
  definition: CoreDefinition<Q, B, K, O>,
  condition: boolean,
  fallbackAnswer: (data: unknown) => Answer,
): OperationCore {
  const { ids, query, body, mcp, create } = definition;
  const run =
    definition.run ??
    (create
      ? (caller: Caller, input: OperationInput<Parsed<Q>, Parsed<B>, K>) =>
          accountWrite(caller.db, caller.userId, async () => {
            const prepared = { ...input, body: create.prepare ? await create.prepare(input.body) : input.body };
            return writeTransaction(caller.db, (tx) => create.write(tx, caller, prepared), { lockUserId: caller.userId, author: caller.author });
          })
      : undefined);
  if (!run) throw new Error("An operation needs run or create");
  return {
    callers: definition.callers ?? ["token"],
    ids,
    query,
    body,
    condition,
    mcp,
    run: run as OperationCore["run"],
    answer: (definition.answer ?? fallbackAnswer) as OperationCore["answer"],
  };
}

/** Validates with an operation's schema, failing exactly as a REST request does. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, code: "INVALID_BODY" | "INVALID_QUERY"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(code, parsed.error);
  return parsed.data;
}

/** Values for a query schema, which reads strings as a query string has them. */
const asQuery = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === "number" || typeof value === "boolean" ? String(value) : value]));

/**
 * An operation's input from values (an MCP call's arguments, a server
 * action's), parsed as REST parses a request, in its order and with its
 * failures: the ids, the query, the body, then the condition.
 */
export function parseOperationInput(
  op: Pick<OperationCore, "ids" | "query" | "body" | "condition">,
  given: { ids?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; condition?: () => number | undefined },
): OperationInput {
  const params = Object.fromEntries(Object.entries(op.ids ?? {}).map(([name, code]) => [name, parseId(typeof given.ids?.[name] === "string" ? given.ids[name] : "", code)]));
  const query = op.query ? parseQueryValues(op.query, asQuery(given.query ?? {})) : undefined;
  const body = op.body ? parseWith(op.body, given.body, "INVALID_BODY") : undefined;
  const ifVersion = op.condition ? given.condition?.() : undefined;
  return { params, query, body, ifVersion };
}

/** An answer as the HTTP response REST sends. */
function toResponse(answer: Answer | Response): Response {
  if (answer instanceof Response) return answer;
  const { status, body, json, markdown, headers } = answer;
  if (markdown !== undefined) return markdownResponse(markdown, { status, headers });
  if (json !== undefined) return jsonTextResponse(json, { status, headers });
  if (body === undefined) return new Response(null, { status, headers });
  return jsonResponse(body, { status, headers });
}

/**
 * Defines an endpoint once: the operation (its input, who may call it, `run`
 * returning data or throwing AppError, the data as an answer) and its route.
 * The route handler (behind withAuth) parses the path's ids, the query, a
 * declared Idempotency-Key, the JSON body and If-Match, in that order, and
 * sends the answer; the rest describes it to the OpenAPI document, the API
 * index and the route files (lib/api/routes.ts). An MCP tool (`mcp`) and the
 * browser's actions (lib/actions) are made from the same operation.
 */
export function defineOperation<Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined, K extends string = never, O = unknown>(
  definition: OperationDefinition<Q, B, K, O>,
): Operation {
  const { ids, bodyReadByRun, browserSession, run: _run, create, answer: _answer, mcp: _mcp, ...route } = definition;
  const core = coreOf(definition, route.headers?.includes("If-Match") ?? false, defaultAnswer(route.responses));
  const handle = withAuth<Record<string, string>>(
    async ({ req, params, user, db }) => {
      const checked = Object.fromEntries(Object.entries<InvalidIdCode>(ids ?? ({} as Record<K, InvalidIdCode>)).map(([name, code]) => [name, parseId(params[name] ?? "", code)]));
      const query = parseQuery(req, route.query ?? NO_QUERY);
      const idempotencyKey = route.headers?.includes("Idempotency-Key") ? readIdempotencyKey(req) : null;
      const body = route.body && !bodyReadByRun ? await parseJsonBody(req, route.body) : undefined;
      const ifVersion = core.condition ? versionFromIfMatch(req.headers.get("if-match")) : undefined;
      const caller = agentCaller("api", user, db, req);
      const input: OperationInput = { params: checked, query, body, ifVersion };
      if (create) return idempotentCreate(create as unknown as AnyCreate, core, caller, input, idempotencyKey);
      return toResponse(core.answer(await core.run(caller, input)));
    },
    { browserSession, bearer: route.mcpTransport, checkOrigin: route.mcpTransport },
  );
  return { ...route, ...core, handle };
}

type AnyCreate = { scope: string; prepare?(body: unknown): Promise<unknown>; write(tx: Transaction, caller: Caller, input: OperationInput): Promise<unknown> };

/** A create over REST: at most once per Idempotency-Key, its answer stored with it and replayed. */
async function idempotentCreate(
  create: AnyCreate,
  core: OperationCore,
  caller: Caller,
  input: OperationInput,
  key: string | null,
): Promise<Response> {
  return accountWrite(caller.db, caller.userId, async () => {
    const prepared = { ...input, body: create.prepare ? await create.prepare(input.body) : input.body };
    return idempotent(caller.db, {
      userId: caller.userId,
      scope: create.scope,
      key,
      request: input.body,
      author: caller.author,
      perform: async (tx) => {
        const answer = core.answer(await create.write(tx, caller, prepared));
        if (answer instanceof Response || answer.body === undefined) throw new Error(`${create.scope}: a create answers a JSON body`);
        return { status: answer.status, body: answer.body, headers: answer.headers };
      },
    });
  });
}

/** An operation only MCP offers (its arguments have no REST form), declared so in the tool table. */
export function defineMcpOperation<Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined, K extends string = never, O = unknown>(
  definition: CoreDefinition<Q, B, K, O> & { mcp: McpTool; condition?: boolean },
): McpOnlyOperation {
  const core = coreOf(definition, definition.condition ?? false, (data) => ({ status: 200, body: data }));
  return { ...core, mcp: definition.mcp, mcpOnly: true };
}

/** An operation only the browser's server actions offer (its input or its data has no REST or MCP form): lib/operations/browser.ts. */
export type SessionOnlyOperation = OperationCore & { sessionOnly: true };

/** An operation for the person signed in to the browser alone, run by a server action (lib/actions, runAction). */
export function defineSessionOperation<Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined, K extends string = never, O = unknown>(
  definition: Omit<CoreDefinition<Q, B, K, O>, "callers" | "mcp" | "create"> & { condition?: boolean },
): SessionOnlyOperation {
  const core = coreOf({ ...definition, callers: ["session"] }, definition.condition ?? false, (data) => ({ status: 200, body: data }));
  return { ...core, sessionOnly: true };
}

/** The HTTP request of a REST call, for an operation only REST offers. */
export function httpRequest(caller: Caller): Request {
  if (!caller.req) throw new Error("This operation is offered over HTTP only");
  return caller.req;
}

/** An endpoint that takes no token (the health check): `run` maps its own failures through the shared mapper. */
export function definePublicOperation(definition: Omit<ApiRoute, "public" | "query" | "body"> & { run(req: Request): Promise<Response> }): Operation {
  const { run, ...route } = definition;
  const handle = async (req: Request): Promise<Response> => {
    try {
      const response = await run(req);
      response.headers.set("X-Request-Id", requestIdFor(req));
      return response;
    } catch (err) {
      return toErrorResponse(err, req);
    }
  };
  const refuse = async (): Promise<never> => {
    throw new Error(`${route.path} answers HTTP only`);
  };
  return { ...route, public: true, callers: [], handle, run: refuse, answer: (data) => data as Response };
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

/** The caller of a REST or MCP call: the token's user, as an agent. */
function agentCaller(kind: "api" | "mcp", user: AuthContext, db: Db, req?: Request): Caller {
  return { userId: user.userId, email: user.email, db, author: agentAuthor(kind, user), ...(req ? { req } : {}) };
}
