import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { log } from "@/lib/log";

/** What the request's own code adds to its line: the account it acted for. */
type Facts = { accountId?: string };

// One store per process: the server's entry and the app's routes are bundled
// apart (scripts/serve.ts, Next's chunks), each with its own copy of this module.
const storeKey = Symbol.for("notes.request-log");
const current: AsyncLocalStorage<Facts> = ((globalThis as Record<symbol, unknown>)[storeKey] as AsyncLocalStorage<Facts> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[storeKey] = new AsyncLocalStorage<Facts>());

/** A request on its way: its code runs inside `run`, and `end` writes its line. */
export type LoggedRequest = {
  run<T>(serve: () => T): T;
  /** Writes the request's one line; `aborted` when the client left before the answer was whole. */
  end(status: number, aborted?: boolean): void;
};

/**
 * One structured line per request, written once it is answered (event
 * "request": method, path, status, duration, request id, and the account it
 * acted for when one was identified), on every server the project ships:
 * `npm start` and the container (scripts/lib/server.ts) and the serverless
 * function (lib/server/serverless-wrapper.ts). The path is logged without its
 * query string, where a search's words would be; no header is. LOG_LEVEL=silent
 * turns these lines off with the rest of the info level.
 */
export function startRequest(request: { method: string; url: string; requestId: string }): LoggedRequest {
  const facts: Facts = {};
  const started = performance.now();
  let ended = false;
  return {
    run: (serve) => current.run(facts, serve),
    end(status, aborted = false) {
      if (ended) return;
      ended = true;
      log.info("request", {
        method: request.method,
        path: pathOf(request.url),
        status,
        ms: Math.round(performance.now() - started),
        requestId: request.requestId,
        ...(facts.accountId && { accountId: facts.accountId }),
        ...(aborted && { aborted: true }),
      });
    },
  };
}

/** Names the account the current request acts for, on its log line (nothing outside a logged request). */
export function noteRequestAccount(accountId: string): void {
  const facts = current.getStore();
  if (facts) facts.accountId = accountId;
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  // An absolute URL (the serverless function's events): only its path.
  return path.startsWith("/") ? path : URL.canParse(path) ? new URL(path).pathname : "/";
}

/** A caller's (or load balancer's) id is kept when it is a plain token; anything else is replaced. */
const INCOMING_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/** The id a request is logged and answered under: the one it came with (X-Request-Id), if sane, or a new one. */
export function requestIdOf(incoming: unknown): string {
  return typeof incoming === "string" && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
