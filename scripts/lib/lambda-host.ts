// One AWS Lambda instance of the serverless build, with its function URL and
// CDN in front, on a local port: what scripts/serverless-run.ts starts, in a
// process of its own per instance (bundled, so it loads nothing from the
// checkout). The instance's init phase imports the function's handler once;
// each request then becomes an API Gateway v2 event, handed to the handler
// through lambda-local one at a time, as Lambda gives an instance one event
// at a time. Static files are answered from the assets folder, as the CDN does.
//
//   node lambda-host.mjs --task <function folder> --assets <assets folder> --port <port>
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import lambdaLocal from "lambda-local";

type ApiGatewayResult = { statusCode: number; headers?: Record<string, string>; cookies?: string[]; body?: string; isBase64Encoded?: boolean };

const CONTENT_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** A file of the assets folder for this path, as the CDN serves it (never outside the folder). */
function assetFor(assets: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = path.join(assets, decoded);
  if (!file.startsWith(assets + path.sep)) return null;
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The request as a function URL hands it to Lambda (payload format 2.0). */
function toEvent(req: http.IncomingMessage, body: Buffer) {
  const url = new URL(req.url ?? "/", "http://function.url");
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === "cookie") cookies.push(...String(value).split(/;\s*/).filter(Boolean));
    else headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const now = new Date();
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: "anonymous",
      apiId: "local",
      domainName: headers.host ?? "localhost",
      domainPrefix: "local",
      http: { method: req.method ?? "GET", path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? "127.0.0.1", userAgent: headers["user-agent"] ?? "" },
      requestId: crypto.randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.toString("base64"),
    isBase64Encoded: true,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { task: { type: "string" }, assets: { type: "string" }, port: { type: "string" }, host: { type: "string", default: "127.0.0.1" } } });
  const task = path.resolve(values.task!);
  const assets = path.resolve(values.assets!);
  // Init phase: the function's module, loaded once per instance.
  const initStarted = performance.now();
  const fn = (await import(pathToFileURL(path.join(task, "index.mjs")).href)) as { handler: unknown };
  process.stdout.write(`[lambda] init ${Math.round(performance.now() - initStarted)} ms\n`);

  // One event at a time per instance.
  let queue: Promise<unknown> = Promise.resolve();
  const invoke = (event: unknown): Promise<ApiGatewayResult> => {
    const run = queue.then(
      () =>
        lambdaLocal.execute({
          event,
          lambdaFunc: fn,
          lambdaHandler: "handler",
          timeoutMs: 30_000,
          // Below 0: the function's own logs pass through (0 to 2 mute them), and lambda-local adds none.
          verboseLevel: -1,
        }) as Promise<ApiGatewayResult>,
    );
    queue = run.catch(() => undefined);
    return run;
  };

  const server = http.createServer(async (req, res) => {
    try {
      const pathname = new URL(req.url ?? "/", "http://function.url").pathname;
      const asset = req.method === "GET" || req.method === "HEAD" ? assetFor(assets, pathname) : null;
      if (asset) {
        res.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(asset)] ?? "application/octet-stream", "cache-control": "public, max-age=31536000, immutable" });
        res.end(req.method === "HEAD" ? undefined : fs.readFileSync(asset));
        return;
      }
      const result = await invoke(toEvent(req, await readBody(req)));
      const headers: http.OutgoingHttpHeaders = { ...result.headers };
      if (result.cookies && result.cookies.length > 0) headers["set-cookie"] = result.cookies;
      res.writeHead(result.statusCode, headers);
      res.end(result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"));
    } catch (error) {
      // The function failed or timed out: Lambda's function URL answers 502.
      process.stderr.write(`[lambda] invocation failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Internal Server Error" }));
    }
  });
  server.listen(Number(values.port), values.host, () => process.stdout.write(`[lambda] listening on http://${values.host}:${values.port}\n`));
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
