// npm run build:standalone: what the container image runs, in one folder.
// Next's standalone output (the build with only the node_modules it needs),
// its static files, the migrations, a bundled release step (migrate.mjs) and
// npm start's own server (serve.mjs: request logs, JSON errors for malformed
// requests, a draining shutdown) in place of Next's server.js:
//   node migrate.mjs     applies pending migrations to DATABASE_URL (release step)
//   node serve.mjs       serves on PORT (HOSTNAME=0.0.0.0 in a container)
// The Dockerfile copies exactly this folder; tests/e2e/deploy.test.ts runs it.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { bundleConversionWorker, bundleForNode } from "@/scripts/lib/build-app";
import { assertNoLocalData } from "@/scripts/lib/build-contents";
import { ensureReleaseBuild } from "@/scripts/lib/release-build";

/** Packages that read their own .wasm/.data files next to their code: copied, not bundled. */
const UNBUNDLED = ["@electric-sql/pglite", "@prisma/schema-engine-wasm"];

/** Where the container's folder is made: what the Dockerfile copies. */
export const CONTAINER_DIR = "dist/container";

/** The container's server, in that folder. */
export const CONTAINER_ENTRY = "serve.mjs";

/**
 * The container's folder, made in `outDir` from a build with standalone
 * output in `distDir` (left as it is): Next's standalone server, copied, with
 * what it needs beside it.
 */
export async function buildStandalone(options: { root: string; distDir: string; outDir?: string; log?: (line: string) => void }): Promise<string> {
  const { root, distDir } = options;
  const log = options.log ?? (() => undefined);
  const dist = path.resolve(root, distDir);
  const out = path.resolve(root, options.outDir ?? CONTAINER_DIR);
  if (!fs.existsSync(path.join(dist, "standalone", "server.js"))) throw new Error(`${distDir} holds no standalone build`);
  log(`copying the standalone server into ${path.relative(root, out)}`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(path.join(dist, "standalone"), out, { recursive: true, verbatimSymlinks: true });
  // The container runs the server npm start runs, bundled with what it imports but Next (the standalone build's own).
  fs.rmSync(path.join(out, "server.js"));
  log("bundling the server into serve.mjs");
  await bundleForNode(root, "scripts/serve.ts", path.join(out, CONTAINER_ENTRY), { standalone: true, external: ["next"] });

  // Static assets are served from the dist folder beside the server.
  fs.cpSync(path.join(dist, "static"), path.join(out, path.basename(distDir), "static"), { recursive: true });
  if (fs.existsSync(path.join(root, "public"))) fs.cpSync(path.join(root, "public"), path.join(out, "public"), { recursive: true });
  fs.cpSync(path.join(root, "prisma"), path.join(out, "prisma"), { recursive: true, filter: (file) => !file.endsWith(".ts") });

  for (const name of UNBUNDLED) {
    const target = path.join(out, "node_modules", name);
    if (!fs.existsSync(target)) fs.cpSync(path.join(root, "node_modules", name), target, { recursive: true });
  }
  log("bundling the release step into migrate.mjs");
  await build({
    entryPoints: [path.join(root, "scripts/db-migrate.ts")],
    outfile: path.join(out, "migrate.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    tsconfig: path.join(root, "tsconfig.json"),
    external: UNBUNDLED,
    // Bundled CommonJS (pg and friends) still calls require for Node's own modules.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: "warning",
  });
  await bundleWorkerInto(root, out, log);
  // Next's traces and the copies above: neither may carry the checkout's local state.
  assertNoLocalData(out, root);
  assertNoLocalData(path.join(dist, "server"), root);
  return out;
}

/**
 * The conversion pool's worker runs outside Next's bundle, so Next's own file
 * tracing never sees it: bundle it into the file the pool loads
 * (lib/body/conversion-worker.mjs, from the server's working directory) in
 * the server's folder `out` (a standalone server's, a serverless function's),
 * and copy the packages it loads at run time (the Markdown parser and writer,
 * the editor's schema) beside the server's, as traced from that bundle.
 */
export async function bundleWorkerInto(root: string, out: string, log: (line: string) => void): Promise<void> {
  log("bundling the conversion worker");
  const worker = path.join(out, "lib", "body", "conversion-worker.mjs");
  await bundleConversionWorker(root, worker);
  const { nodeFileTrace } = (await import(path.join(root, "node_modules/next/dist/compiled/@vercel/nft/index.js"))) as {
    nodeFileTrace(files: string[], options: { base: string; processCwd: string }): Promise<{ fileList: Set<string> }>;
  };
  // Traced from the checkout's copy of the bundle's imports: resolve them from the root's node_modules.
  const probe = path.join(root, "lib", "body", ".conversion-worker.traced.mjs");
  fs.copyFileSync(worker, probe);
  try {
    const { fileList } = await nodeFileTrace([probe], { base: root, processCwd: root });
    let copied = 0;
    for (const file of fileList) {
      if (!file.startsWith("node_modules/")) continue;
      const target = path.join(out, file);
      if (fs.existsSync(target)) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.cpSync(path.join(root, file), target, { dereference: true });
      copied++;
    }
    log(`conversion worker: ${copied} package files copied`);
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const log = (line: string) => process.stdout.write(`[build] ${line}\n`);
  ensureReleaseBuild(root, log)
    .then((distDir) => buildStandalone({ root, distDir, log }))
    .then(
      (out) => process.stdout.write(`[build] ${path.relative(root, out)}: run \`node migrate.mjs\` once per release, then \`node ${CONTAINER_ENTRY}\`\n`),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
}
