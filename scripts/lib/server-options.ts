import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Node flags of the production server. A bounded old space makes V8 collect
 * garbage rather than grow toward the machine's memory: under load the server
 * otherwise settles at 600+ MB of mostly dead response strings, with it at
 * about 250 MB. But under a bound that small V8 lets the old generation grow
 * only about 1.1× past what the last full collection kept, and a page of a
 * list, whose rows outlive a young collection or two while the request is in
 * flight, then set off a full collection every ~130 ms: a third of the
 * request thread's time. Letting it grow 1.5× first cost 7–17 MB more at the
 * end of a load and cut the thread's time per list page by about a third.
 * The young generation's semi-spaces are bounded at 8 MB instead of 16: their
 * pages stay resident once grown. In soaks of 100 KB writes the request
 * thread's heap ended at 104 MB instead of 125 MB (V8's --trace-gc), and list
 * pages cost the same CPU time (4.7–6.7 ms against 5.8–6.6 ms, in turns).
 */
export const SERVER_NODE_ARGS = ["--max-old-space-size=256", "--heap-growing-percent=50", "--max-semi-space-size=8"];

/**
 * Environment of the production server, under whatever the caller's
 * environment sets. glibc gives each thread that allocates (the request
 * thread, the conversion worker, libuv's pool, V8's helpers) up to eight arenas
 * per core, each keeping freed memory. Two arenas held an idle server at
 * 318 MB instead of 381 MB (0.83×); one arena held malloc's share of a server
 * under 100 KB writes at 49–53 MB instead of 79 MB (0.62–0.67×), with the same
 * throughput and CPU time per list page (measured in turns).
 */
export const SERVER_ENV: Record<string, string> = { MALLOC_ARENA_MAX: "1" };

/** The server's entry (scripts/serve.ts) as the production build bundles it (scripts/lib/build-app.ts). */
export function bundledServerPath(root: string, distDir: string): string {
  return path.join(root, distDir, "serve.mjs");
}

/**
 * Node's arguments after its flags that run the production server of the
 * build in `distDir`: its bundled entry, or, for a build made before the
 * entry was bundled, scripts/serve.ts through tsx.
 */
export function serverEntryArgs(root: string, distDir: string): string[] {
  const bundled = bundledServerPath(root, distDir);
  return existsSync(bundled) ? [bundled] : ["--import", "tsx", path.join(root, "scripts/serve.ts")];
}
