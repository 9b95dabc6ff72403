// First, as in Next's server: the AsyncLocalStorage its request scope is made of.
import "next/dist/server/node-environment-baseline.js";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";
// Next's own pieces of an App Router request, the same ones its route module
// uses: the methods a route file does not export (HEAD from GET, OPTIONS, 405),
// and the request scope `after()` and `headers()` read.
import { createWorkStore } from "next/dist/server/async-storage/work-store.js";
import { createRequestStoreForAPI } from "next/dist/server/async-storage/request-store.js";
import { workAsyncStorage } from "next/dist/server/app-render/work-async-storage.external.js";
import { workUnitAsyncStorage } from "next/dist/server/app-render/work-unit-async-storage.external.js";
import { getImplicitTags } from "next/dist/server/lib/implicit-tags.js";
import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods.js";
import { isHTTPMethod } from "next/dist/server/web/http.js";
import { NextRequest } from "next/server";
import { registerApiOrigin, serveOriginInProcess } from "./api-traffic";
import { ROOT } from "./test-app";

/**
 * The app's route handlers (app/api/**\/route.ts) in the test's own process:
 * a request to `url` (with fetch, the API client or the MCP client) is matched
 * to its route file as Next.js matches it, and the file's handler is called
 * with a real Request and its params, inside Next's request scope. The
 * handlers, withAuth, the data layer and the conversion pool are the app's
 * own; what is left out is Next's HTTP server (the http layer's tests keep
 * it). Responses are checked against the OpenAPI document like any other.
 */
export type InProcessApp = {
  /** The app's origin (its APP_URL): requests to it are answered in this process. */
  url: string;
  /** The app's log lines so far. */
  output(): string;
  stop(): Promise<void>;
};

type RouteModule = Record<string, unknown>;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
type Segment = { kind: "static"; value: string } | { kind: "dynamic" | "catchAll" | "optionalCatchAll"; name: string };
type Route = { file: string; page: string; segments: Segment[] };
type Params = Record<string, string | string[]>;

const API_DIR = path.join(ROOT, "app", "api");

/** Every route file under app/api, with its path's segments (route groups, `(name)`, are not part of the URL). */
function readRoutes(): Route[] {
  const routes: Route[] = [];
  for (const entry of fs.readdirSync(API_DIR, { recursive: true, encoding: "utf8" })) {
    if (path.basename(entry) !== "route.ts") continue;
    const dirs = path.dirname(entry) === "." ? [] : path.dirname(entry).split(path.sep);
    const segments: Segment[] = [{ kind: "static", value: "api" }];
    for (const dir of dirs) {
      if (/^\(.*\)$/.test(dir)) continue;
      const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(dir);
      const catchAll = /^\[\.\.\.(.+)\]$/.exec(dir);
      const dynamic = /^\[(.+)\]$/.exec(dir);
      if (optional) segments.push({ kind: "optionalCatchAll", name: optional[1]! });
      else if (catchAll) segments.push({ kind: "catchAll", name: catchAll[1]! });
      else if (dynamic) segments.push({ kind: "dynamic", name: dynamic[1]! });
      else segments.push({ kind: "static", value: dir });
    }
    routes.push({ file: path.join(API_DIR, entry), page: `/${["api", ...dirs].join("/")}/route`, segments });
  }
  return routes;
}

const RANK: Record<Segment["kind"], number> = { static: 0, dynamic: 1, catchAll: 2, optionalCatchAll: 3 };

/**
 * The route a path's segments go to, as Next.js chooses: segment by segment,
 * a static name before a dynamic one, before a catch-all, before an optional
 * catch-all, going back to the next choice when a branch matches nothing.
 */
function matchRoute(routes: Route[], parts: string[], depth = 0, params: Params = {}): { route: Route; params: Params } | null {
  if (depth === parts.length) {
    const exact = routes.find((route) => route.segments.length === depth);
    if (exact) return { route: exact, params };
    const optional = routes.find((route) => route.segments.length === depth + 1 && route.segments[depth]!.kind === "optionalCatchAll");
    return optional ? { route: optional, params } : null;
  }
  const candidates = routes.filter((route) => route.segments.length > depth);
  const part = parts[depth]!;
  const byKind = [...new Set(candidates.map((route) => route.segments[depth]!.kind))].sort((a, b) => RANK[a] - RANK[b]);
  for (const kind of byKind) {
    const here = candidates.filter((route) => route.segments[depth]!.kind === kind);
    if (kind === "static") {
      const found = matchRoute(here.filter((route) => (route.segments[depth] as { value: string }).value === part), parts, depth + 1, params);
      if (found) return found;
      continue;
    }
    for (const route of here) {
      const segment = route.segments[depth] as { name: string };
      if (kind === "dynamic") {
        const found = matchRoute([route], parts, depth + 1, { ...params, [segment.name]: part });
        if (found) return found;
      } else if (route.segments.length === depth + 1) {
        return { route, params: { ...params, [segment.name]: parts.slice(depth) } };
      }
    }
  }
  return null;
}

let active: string | undefined;
let started = 0;

/**
 * Starts the app's route handlers for requests to a fresh origin. `env` is
 * the app's environment on top of this process's (NODE_ENV stays "test": the
 * conversion pool then loads the checkout's worker, not a build's). The app's
 * settings and its database client are kept per process, as in a server, so
 * one app runs at a time in a test file's process; each starts from freshly
 * loaded modules (vi.resetModules), so a second app of the file reads its own
 * settings.
 */
export async function startInProcessApp(env: Record<string, string | undefined>): Promise<InProcessApp> {
  if (active) throw new Error(`An in-process app (${active}) is still running: stop it before starting another`);
  started += 1;
  const url = `http://notes-${process.pid}-${started}.test`;
  active = url;
  const settings: Record<string, string | undefined> = {
    APP_URL: url,
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64"),
    LOG_LEVEL: "info",
    // Tests send far more than an account's API budget; the rate-limit tests set their own.
    API_RATE_LIMIT: "1000000",
    ...env,
  };
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  setEnv(settings);
  vi.resetModules();

  // The app's log lines (one JSON object each, on stderr) are kept, as a server process's output is.
  let output = "";
  const writeStderr = process.stderr.write;
  process.stderr.write = function write(chunk: unknown, ...rest: unknown[]) {
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : undefined;
    if (text?.startsWith('{"level":')) {
      output += text;
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }
    return (writeStderr as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  } as typeof process.stderr.write;

  const routes = readRoutes();
  const modules = new Map<string, Promise<Record<string, Handler>>>();
  const methodsOf = (file: string) => {
    let methods = modules.get(file);
    if (!methods) {
      methods = (import(/* @vite-ignore */ file) as Promise<RouteModule>).then((userland) => autoImplementMethods(userland as never) as Record<string, Handler>);
      modules.set(file, methods);
    }
    return methods;
  };
  /** Work the handlers left to run after their response (`after()`), awaited at stop. */
  const pending = new Set<Promise<unknown>>();

  async function handle(request: Request): Promise<Response> {
    const target = new URL(request.url);
    const parts = target.pathname.split("/").slice(1);
    if (parts[0] !== "api" || (parts.length > 1 && parts.at(-1) === "")) {
      throw new Error(`${request.method} ${target.pathname}: only the API's route handlers are served in-process (the http layer serves pages and redirects)`);
    }
    let decoded: string[];
    try {
      decoded = parts.map((part) => decodeURIComponent(part));
    } catch {
      return new Response(null, { status: 400 });
    }
    const match = matchRoute(routes, decoded);
    if (!match) throw new Error(`No route file under app/api matches ${target.pathname}`);
    if (!isHTTPMethod(request.method)) return new Response(null, { status: 400 });
    const handler = (await methodsOf(match.route.file))[request.method]!;
    const req = new NextRequest(request);

    // The request scope Next.js gives a route handler. `after()` work runs
    // once the response's body has been read to its end (Next: once it is sent).
    const closeListeners: (() => void)[] = [];
    const workStore = createWorkStore({
      page: match.route.page,
      renderOpts: {
        experimental: {},
        supportsDynamicResponse: true,
        waitUntil: (promise: Promise<unknown>) => {
          pending.add(promise);
          void promise.finally(() => pending.delete(promise));
        },
        onClose: (listener: () => void) => closeListeners.push(listener),
        onAfterTaskError: undefined,
      },
      buildId: "in-process",
      previouslyRevalidatedTags: [],
    } as never);
    const implicitTags = await getImplicitTags(match.route.page, target.pathname, null);
    const requestStore = createRequestStoreForAPI(req as never, req.nextUrl as never, implicitTags, undefined, undefined as never, undefined);
    let response: unknown;
    try {
      response = await workUnitAsyncStorage.run(requestStore, () => workAsyncStorage.run(workStore, () => handler(req, { params: Promise.resolve(match.params) })));
    } catch (error) {
      // Next.js logs an error a handler throws and answers an empty 500.
      console.error(error);
      response = new Response(null, { status: 500 });
    }
    if (!(response instanceof Response)) response = new Response(null, { status: 500 });
    const answer = response as Response;
    const close = () => closeListeners.splice(0).forEach((listener) => listener());
    if (request.method === "HEAD" || answer.body === null) {
      close();
      return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    }
    const body = answer.body.pipeThrough(new TransformStream({ flush: close }));
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }

  serveOriginInProcess(url, handle);
  registerApiOrigin(url);
  return {
    url,
    output: () => output,
    async stop() {
      serveOriginInProcess(url, undefined);
      try {
        await Promise.allSettled([...pending]);
        // The app's process-wide resources, as a server's shutdown ends them: the conversion workers and the database client.
        const { closeConversionPool } = await import("@/lib/body/conversion-pool");
        await closeConversionPool();
        await closeDatabaseClient();
      } finally {
        process.stderr.write = writeStderr;
        setEnv(saved);
        active = undefined;
      }
    },
  };
}

/**
 * Closes the app's database client (lib/db/client.ts keeps one per process on
 * globalThis, under this registered symbol) and forgets it, so the next app
 * opens its own database.
 */
async function closeDatabaseClient(): Promise<void> {
  const key = Symbol.for("notes.db");
  const store = globalThis as { [key]?: Promise<{ close(): Promise<void> }> };
  const handle = store[key];
  delete store[key];
  if (handle) await (await handle.catch(() => undefined))?.close();
}
