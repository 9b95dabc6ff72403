import { spawnSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { bundledWorkerPath } from "@/lib/body/worker-file";
import { bundledServerPath } from "@/scripts/lib/server-options";

/**
 * One TypeScript entry point as one ES module for Node 22. Packages stay in
 * node_modules unless `standalone`: then everything is in the file but the
 * packages named `external`, and it runs with only those installed beside it.
 */
export async function bundleForNode(root: string, entry: string, outfile: string, { standalone = false, external = [] as string[] } = {}): Promise<void> {
  await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    tsconfig: path.join(root, "tsconfig.json"),
    ...(standalone
      ? // Bundled CommonJS still calls require for Node's own modules.
        { banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' }, external }
      : { packages: "external" as const }),
    logLevel: "warning",
  });
}

/**
 * The conversion pool's worker (lib/body/conversion-worker-main.ts) as one
 * ES module. Loaded through tsx from a checkout it costs more memory and
 * starts slower: measured with one worker, 124 MB instead of 161 MB once loaded.
 */
export async function bundleConversionWorker(root: string, outfile: string): Promise<void> {
  await bundleForNode(root, "lib/body/conversion-worker-main.ts", outfile);
}

/**
 * What a production server runs outside Next's bundle, bundled into the build's
 * folder: the conversion worker, and the server's own entry (scripts/serve.ts),
 * so the server process loads no TypeScript compiler. Through tsx (which worker
 * threads inherit) an idle server held 321 MB; bundled, 212 MB.
 */
export async function bundleServerFiles(root: string, distDir: string): Promise<void> {
  await bundleConversionWorker(root, bundledWorkerPath(root, distDir));
  await bundleForNode(root, "scripts/serve.ts", bundledServerPath(root, distDir));
}

/**
 * The production app, as `npm run build` makes it: `next build` into
 * `distDir` (with `env` added), then the files bundled beside it.
 */
export async function buildProductionApp(options: { root: string; distDir: string; env?: Record<string, string> }): Promise<void> {
  const { root, distDir } = options;
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir, ...options.env },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
  await bundleServerFiles(root, distDir);
}
