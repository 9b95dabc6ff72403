// npm run build:serverless: the app as an AWS Lambda function, built by
// OpenNext (open-next.config.ts) into .open-next:
//   server-functions/default/   the function (index.mjs exports `handler`)
//   assets/                     static files, served by the CDN in front of it
// `node scripts/serverless-run.ts` runs it as Lambda does; docs/deploy.md
// has the deployment.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { bundleWorkerInto } from "@/scripts/build-standalone";
import { assertNoLocalData } from "@/scripts/lib/build-contents";
import { ensureReleaseBuild } from "@/scripts/lib/release-build";

/** Where the build lands, beside the checkout's other builds. */
export const SERVERLESS_DIR = ".open-next";

/** The function's folder inside a serverless build. */
export function serverFunctionDir(buildDir: string): string {
  return path.join(buildDir, "server-functions", "default");
}

// Never copied into the build's source: local state, secrets, other builds.
const LEFT_OUT = new Set(["node_modules", ".git", ".data", SERVERLESS_DIR, ".env", ".env.local", "bench/results", "test-results", "coverage"]);

/**
 * Copies the checkout's sources into `to`, with node_modules hard-linked
 * (copied where the two folders are on different file systems).
 */
function copySources(root: string, to: string): void {
  fs.cpSync(root, to, {
    recursive: true,
    filter: (file) => {
      const relative = path.relative(root, file);
      return !(LEFT_OUT.has(relative) || relative.startsWith(".next") || relative.endsWith(".tsbuildinfo"));
    },
  });
  const linked = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(to, "node_modules")], { encoding: "utf8" });
  if (linked.status !== 0) fs.cpSync(path.join(root, "node_modules"), path.join(to, "node_modules"), { recursive: true, verbatimSymlinks: true });
}

/**
 * Builds the function. OpenNext builds in the app's `.next` (it takes no other
 * folder), so it runs in a copy of the checkout: the checkout's own `.next`
 * (the tests', a running server's) is left alone. With `prebuilt` (a dist
 * folder built with standalone output, as the tests build theirs), that build
 * is copied in and packaged, not built again.
 */
export async function buildServerless(options: { root: string; outDir?: string; prebuilt?: string; log?: (line: string) => void }): Promise<string> {
  const { root } = options;
  const log = options.log ?? (() => undefined);
  const outDir = path.resolve(root, options.outDir ?? SERVERLESS_DIR);
  const source = fs.mkdtempSync(path.join(os.tmpdir(), "notes-serverless-src-"));
  try {
    log(`copying the sources into ${source}`);
    copySources(root, source);
    if (options.prebuilt) {
      const prebuilt = path.resolve(root, options.prebuilt);
      if (!fs.existsSync(path.join(prebuilt, "standalone", "server.js"))) throw new Error(`${options.prebuilt} holds no standalone build to package`);
      log(`using the build in ${options.prebuilt}`);
      fs.cpSync(prebuilt, path.join(source, ".next"), { recursive: true, verbatimSymlinks: true, filter: (file) => path.relative(prebuilt, file) !== "cache" });
    }
    log("open-next build");
    const result = spawnSync(process.execPath, [path.join(source, "node_modules/@opennextjs/aws/dist/index.js"), "build"], {
      cwd: source,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next", NEXT_OUTPUT: "", SERVERLESS_PREBUILT: options.prebuilt ? "1" : "" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`open-next build failed:\n${result.stdout}\n${result.stderr}`);
    const built = path.join(source, SERVERLESS_DIR);
    // The conversion pool loads its worker by path from the function's own folder
    // (OpenNext's handler runs there), outside Next's bundle and so outside its traces.
    await bundleWorkerInto(source, serverFunctionDir(built), log);
    assertNoLocalData(built, source);
    assertNoLocalData(path.join(source, ".next", "server"), source);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.cpSync(built, outDir, { recursive: true, verbatimSymlinks: true });
    return outDir;
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: "string", default: SERVERLESS_DIR } } });
  const root = process.cwd();
  const log = (line: string) => process.stdout.write(`[build] ${line}\n`);
  const started = Date.now();
  ensureReleaseBuild(root, log)
    .then((prebuilt) => buildServerless({ root, outDir: values.out, prebuilt, log }))
    .then(
      (out) => process.stdout.write(`[build] ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s: ${path.relative(out, serverFunctionDir(out))} is the function\n`),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
}
