import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BodyTooLargeError, readBodyText, type NodeRequest } from "../lib/server/request-body";
import { SESSION_TOKEN_TTL_SECONDS, VERIFY_ERRORS, ZVerifyRequestSchema } from "../lib/identity/contract";
import { HEALTH_PATH, ROUTE_ERRORS, TOKEN_ERRORS, TOKENS_PATH, VERIFY_PATH } from "./api";
import { loadOrCreateServerSecret } from "./credentials";
import { checkPartnerKey } from "./partners";
import { issueSessionToken, resolveSessionToken } from "./sessions";
import { IdentityStore } from "./store";

export type IdentityServerOptions = {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Directory holding the state file and server secret; created if missing. */
  dataDir: string;
  /** Session token lifetime; default 300 (the contract's five minutes). */
  tokenTtlSeconds?: number;
  /** Receives one line per request (method, route, status, duration) and per server error; never keys or tokens. */
  log?: (line: string) => void;
  /** Milliseconds since the epoch, for token lifetimes; default Date.now. Tests pass their own to expire tokens without waiting. */
  now?: () => number;
};

export type IdentityServer = {
  /** Base URL, e.g. http://127.0.0.1:4000, to use as IDENTITY_API_URL. */
  url: string;
  port: number;
  close(): Promise<void>;
};

type CreateIdentityAppOptions = {
  store: IdentityStore;
  secret: Buffer;
  tokenTtlSeconds: number;
  log?: (line: string) => void;
  now?: () => number;
};

/** Largest request body read; session tokens are a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`Port ${port} on ${host} is already in use`);
  }
}

type Bearer = { kind: "invalid" } | { kind: "empty" } | { kind: "key"; key: string };

/**
 * Splits `Authorization: Bearer <key>`. HTTP strips trailing whitespace
 * from header values, so a client's "Bearer " with an empty key arrives as
 * "Bearer"; both count as a Bearer header with an empty key.
 */
function readBearer(header: string | undefined): Bearer {
  if (header === undefined) return { kind: "invalid" };
  if (header === "Bearer") return { kind: "empty" };
  if (!header.startsWith("Bearer ")) return { kind: "invalid" };
  const key = header.slice("Bearer ".length).trim();
  return key ? { kind: "key", key } : { kind: "empty" };
}

const NO_BODY = Symbol("invalid JSON");

async function readJsonBody(request: Request | NodeRequest): Promise<unknown> {
  const text = await readBodyText(request, MAX_BODY_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    return NO_BODY;
  }
}

const fail = (c: Context, status: ContentfulStatusCode, error: string, headers?: Record<string, string>) =>
  c.json({ error }, status, headers);

const KNOWN_ROUTES: Record<string, string> = {
  [VERIFY_PATH]: "POST",
  [TOKENS_PATH]: "POST",
  [HEALTH_PATH]: "GET, HEAD",
};

/**
 * The HTTP app. Routes: POST /api/verify (partner contract), POST
 * /api/tokens (agent tool), GET /health. Any other path is 404, any other
 * method on these paths 405 with an Allow header; both JSON `{ error }`.
 */
function createIdentityApp(options: CreateIdentityAppOptions): Hono {
  const { store, secret, tokenTtlSeconds, log, now = Date.now } = options;
  const app = new Hono();

  if (log) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      // Only fixed route names are logged: paths and queries of unmatched
      // requests could carry a key or token pasted in the wrong place.
      const route = c.req.path in KNOWN_ROUTES ? c.req.path : "(unmatched)";
      log(`${c.req.method} ${route} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
    });
  }

  // POST /api/verify – partner key + session token → the user's email
  app.post(VERIFY_PATH, async (c) => {
    const bearer = readBearer(c.req.header("authorization"));
    if (bearer.kind === "invalid") return fail(c, 401, VERIFY_ERRORS.missingOrInvalidPartnerKey);
    if (bearer.kind === "empty") return fail(c, 401, VERIFY_ERRORS.missingPartnerKey);
    const index = await store.snapshot();
    const partner = checkPartnerKey(index, bearer.key);
    if (partner.status === "unknown") return fail(c, 401, VERIFY_ERRORS.invalidPartnerKey);
    if (partner.status === "revoked") return fail(c, 403, VERIFY_ERRORS.revokedPartnerKey);
    // Served by Node (createAdaptorServer): its own request, read directly; otherwise (app.request in a test) the web Request.
    const body = await readJsonBody((c.env as { incoming?: NodeRequest } | undefined)?.incoming ?? c.req.raw);
    if (body === NO_BODY) return fail(c, 400, VERIFY_ERRORS.invalidJson);
    const parsed = ZVerifyRequestSchema.safeParse(body);
    if (!parsed.success) return fail(c, 400, VERIFY_ERRORS.invalidSessionToken);
    const email = resolveSessionToken(index, secret, parsed.data.sessionToken, now());
    if (email === undefined) return fail(c, 401, VERIFY_ERRORS.invalidOrExpiredToken);
    return c.json({ email }, 200);
  });

  // POST /api/tokens – personal API key → short-lived session token
  app.post(TOKENS_PATH, async (c) => {
    const bearer = readBearer(c.req.header("authorization"));
    if (bearer.kind === "invalid") return fail(c, 401, TOKEN_ERRORS.missingOrInvalidApiKey);
    if (bearer.kind === "empty") return fail(c, 401, TOKEN_ERRORS.missingApiKey);
    const issued = issueSessionToken({ index: await store.snapshot(), secret, rawUserKey: bearer.key, ttlSeconds: tokenTtlSeconds, now: now() });
    if (issued.status === "unknown") return fail(c, 401, TOKEN_ERRORS.invalidApiKey);
    if (issued.status === "revoked") return fail(c, 401, TOKEN_ERRORS.revokedApiKey);
    return c.json(
      { sessionToken: issued.sessionToken, expiresAt: new Date(issued.expiresAt).toISOString() },
      200,
      { "Cache-Control": "no-store" },
    );
  });

  // GET /health – liveness
  app.get(HEALTH_PATH, (c) => c.json({ ok: true }, 200));

  for (const [path, allow] of Object.entries(KNOWN_ROUTES)) {
    app.all(path, (c) => fail(c, 405, ROUTE_ERRORS.methodNotAllowed, { Allow: allow }));
  }
  app.notFound((c) => fail(c, 404, ROUTE_ERRORS.notFound));

  app.onError((err, c) => {
    // The rest of the body is not read: the connection cannot carry another request.
    if (err instanceof BodyTooLargeError) return fail(c, 413, ROUTE_ERRORS.bodyTooLarge, { Connection: "close" });
    const message = err instanceof Error ? err.message : String(err);
    log?.(`error: ${message}`);
    return fail(c, 500, message || "Internal server error");
  });

  return app;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(err.code === "EADDRINUSE" ? new PortInUseError(port, host) : err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(server.address() as AddressInfo);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** Starts the identity service over `dataDir`, creating its secret on first start. */
export async function startIdentityServer(options: IdentityServerOptions): Promise<IdentityServer> {
  const { port = 0, host = "127.0.0.1", dataDir, tokenTtlSeconds = SESSION_TOKEN_TTL_SECONDS, log, now } = options;
  if (!(tokenTtlSeconds > 0)) throw new Error("tokenTtlSeconds must be positive");
  const store = await IdentityStore.open(dataDir);
  const secret = await loadOrCreateServerSecret(store.dataDir);
  // Fail at start, not on the first request, if the state file is unreadable.
  await store.snapshot();
  const app = createIdentityApp({ store, secret, tokenTtlSeconds, log, now });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const address = await listen(server, port, host);
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
