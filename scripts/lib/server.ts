import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import next from "next";
import { AppError, methodNotAllowedError, REQUEST_ID_HEADER, toErrorParts, type ErrorParts } from "@/lib/errors";
import { log } from "@/lib/log";
import { requestIdOf, startRequest } from "@/lib/server/request-log";

export type AppServerOptions = {
  /** The app's root (holds `.next`). */
  dir: string;
  port: number;
  hostname?: string;
  /** How long in-flight requests get to finish after a shutdown begins. */
  shutdownTimeoutMs?: number;
};

export type AppServer = {
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the deadline), closes idle sockets, the app and the database. */
  close(): Promise<void>;
};

// Methods some route may answer; Next.js fails others with an empty 400 or a plain-text 500 (TRACE).
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const MAX_TARGET_LENGTH = 8192;

/**
 * The production server: Next.js's request handler behind node:http, so the
 * process owns what `next start` hides: the raw request (malformed URLs and
 * oversized headers become JSON 4xx instead of plain-text 500s), a request id
 * on every response, and a shutdown that drains in-flight requests, closes
 * keep-alive sockets, the database pool and the embedded database's lock.
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const hostname = options.hostname ?? "0.0.0.0";
  applyStandaloneSettings(options.dir);
  const app = next({ dev: false, dir: options.dir, hostname, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  let draining = false;
  const active = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader("X-Request-Id", requestId);
    const logged = startRequest({ method: req.method ?? "GET", url: req.url ?? "/", requestId });
    res.once("close", () => logged.end(res.statusCode, !res.writableFinished));
    // Once draining, each answer closes its connection, so no socket outlives its request.
    if (draining) res.setHeader("Connection", "close");
    active.add(res);
    res.once("close", () => active.delete(res));
    closeWhenBodyUnread(req, res);

    const rejection = checkRawRequest(req);
    if (rejection) return sendParts(res, rejection);
    logged.run(() => handle(req, res)).catch((err: unknown) => {
      const parts = toErrorParts(err, requestFacade(requestId));
      if (!res.headersSent) sendParts(res, parts);
      else res.destroy();
    });
  });

  // Malformed requests Node's parser refuses never reach the handler: answer
  // them as JSON too (431 for headers over the limit) instead of a bare status line.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    // Past its first answer (a response in progress or sent), the socket is only closed, as Node does.
    const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || answering) return void socket.destroy();
    const requestId = randomUUID();
    const error =
      err.code === "HPE_HEADER_OVERFLOW"
        ? new AppError("REQUEST_HEADERS_TOO_LARGE")
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? new AppError("REQUEST_TIMEOUT")
          : new AppError("MALFORMED_REQUEST", { args: ["Malformed HTTP request"] });
    const { status, headers, body } = toErrorParts(error, requestFacade(requestId));
    const text = JSON.stringify(body);
    const lines = [
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(text)}`,
      "Connection: close",
      `X-Request-Id: ${requestId}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${lines.join("\r\n")}\r\n\r\n${text}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      const deadline = Date.now() + (options.shutdownTimeoutMs ?? 10_000);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A keep-alive socket turns idle when its last request ends: close it then.
      while (active.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        server.closeIdleConnections();
      }
      if (active.size > 0) log.warn("server.shutdown_deadline", { unfinished: active.size });
      server.closeAllConnections();
      await stopped;
      await app.close().catch(() => undefined);
      await closeDatabase();
    })());

  return { url, close };
}

/**
 * A standalone folder (the container's) holds no next.config: its build's
 * settings are in `.next/required-server-files.json`, and Next reads them
 * from __NEXT_PRIVATE_STANDALONE_CONFIG, as the server.js it writes beside
 * them sets it. A checkout (`npm start`) has its next.config.
 */
function applyStandaloneSettings(dir: string): void {
  if (fs.readdirSync(dir).some((name) => name.startsWith("next.config."))) return;
  const settings = path.join(dir, process.env.NEXT_DIST_DIR || ".next", "required-server-files.json");
  if (!fs.existsSync(settings)) throw new Error(`${dir} has neither a next.config nor a standalone build's ${path.relative(dir, settings)}`);
  const { config } = JSON.parse(fs.readFileSync(settings, "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

/**
 * An answer that starts before the request's body has all arrived (a 413, or
 * a 401 or 404 given without reading it) says `Connection: close`, and the
 * connection is closed after it. The rest of that body is never used, so the
 * connection cannot carry another request: kept alive, a client sends its next
 * request behind the unread bytes and loses it when the idle connection times
 * out. Reading the rest to keep the connection would let any caller make the
 * server read an unbounded body for nothing.
 */
function closeWhenBodyUnread(req: http.IncomingMessage, res: http.ServerResponse): void {
  // Most requests (every GET) declare no body: nothing to watch.
  if (req.headers["transfer-encoding"] === undefined && !(Number(req.headers["content-length"]) > 0)) return;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete) {
      res.shouldKeepAlive = false;
      // A request whose connection is already gone has no socket left.
      const socket = req.socket as Socket | null;
      if (socket) lingerBeforeClosing(socket);
    }
    return writeHead(...args);
  }) as typeof res.writeHead;
  // What arrives until then is read and dropped, also after a reader stopped part way
  // (a body over its limit), so the client can finish sending and close its side.
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("readable");
    req.resume();
  });
}

/** How long a connection closed with request bytes still arriving stays open after its answer. */
const LINGER_MS = 2000;

/**
 * Node closes a connection the moment its last answer is handed to the
 * kernel. With request bytes still arriving, the kernel then resets the
 * connection, which drops whatever of the answer has not been sent yet (the
 * end of a large answer). This socket instead sends its FIN after the answer
 * and is closed when the client closes its side, or LINGER_MS later.
 */
function lingerBeforeClosing(socket: Socket): void {
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
}

/** Requests Next.js would fail with an empty or plain-text answer: refused here as JSON. */
function checkRawRequest(req: http.IncomingMessage): ErrorParts | null {
  const requestId = String(req.headers[REQUEST_ID_HEADER]);
  if (!SERVED_METHODS.includes(req.method ?? "")) return toErrorParts(methodNotAllowedError(req.method, SERVED_METHODS), requestFacade(requestId));
  const target = req.url ?? "/";
  // Answers may echo the target (a redirect's Location): past this, clients cannot read them.
  if (target.length > MAX_TARGET_LENGTH) {
    return toErrorParts(new AppError("URI_TOO_LONG", { args: [MAX_TARGET_LENGTH] }), requestFacade(requestId));
  }
  if (!target.startsWith("/")) {
    return toErrorParts(new AppError("MALFORMED_REQUEST", { args: ["Malformed request target: expected a path"] }), requestFacade(requestId));
  }
  const queryAt = target.indexOf("?");
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  try {
    // Dot segments (also as %2e) would resolve to another route than the one named.
    if (decodeURIComponent(pathname).split("/").some((part) => part === "." || part === "..")) {
      return toErrorParts(new AppError("MALFORMED_REQUEST", { args: ["Malformed URL: the path has dot segments"] }), requestFacade(requestId));
    }
  } catch {
    return toErrorParts(
      new AppError("MALFORMED_REQUEST", { args: ["Malformed URL: the path has invalid percent-encoding"] }),
      requestFacade(requestId),
    );
  }
  return null;
}

function sendParts(res: http.ServerResponse, { status, headers, body }: ErrorParts): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

// toErrorParts reads the request id from a web Request's headers.
function requestFacade(requestId: string): Request {
  return { headers: new Headers({ [REQUEST_ID_HEADER]: requestId }) } as Request;
}

// The app keeps its one database handle on globalThis (lib/db/client.ts);
// closing it ends the pool, or closes the embedded database and frees its lock.
async function closeDatabase(): Promise<void> {
  const pending = (globalThis as { [key: symbol]: Promise<{ close(): Promise<void> }> | undefined })[Symbol.for("notes.db")];
  if (!pending) return;
  try {
    await (await pending).close();
  } catch (err) {
    log.warn("server.database_close_failed", { cause: err instanceof Error ? err.message : String(err) });
  }
}
