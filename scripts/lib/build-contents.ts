import fs from "node:fs";
import path from "node:path";

/**
 * Folders of a checkout that hold local state, never code: the embedded
 * database, the outbox and the local identity service's files (`.data`), and
 * what benchmarks and tests leave behind.
 */
const LOCAL_DATA_DIRS = [".data", "bench/results", "test-results", "coverage"];

function isLocalData(relative: string): boolean {
  const normalized = relative.split(path.sep).join("/");
  return LOCAL_DATA_DIRS.some((dir) => normalized === dir || normalized.startsWith(`${dir}/`));
}

function* walk(dir: string, skip: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === skip) continue;
    if (entry.isDirectory()) yield* walk(full, skip);
    else yield full;
  }
}

/**
 * What in a build would ship local state: every file under `buildDir` lying in
 * one of LOCAL_DATA_DIRS (relative to `buildDir`, as a standalone or function
 * folder mirrors the checkout), and every entry of its `.nft.json` traces that
 * resolves into one of them under `root` (the checkout it was built from).
 * Empty when there is none.
 */
export function localDataInBuild(buildDir: string, root: string): string[] {
  const problems: string[] = [];
  // Next's own cache beside a build is never shipped.
  for (const file of walk(buildDir, path.join(buildDir, "cache"))) {
    const relative = path.relative(buildDir, file);
    // A server folder inside the build (a standalone server's) mirrors the checkout too.
    const segments = relative.split(path.sep);
    const nested = !segments.includes("node_modules") && segments.includes(".data");
    if (isLocalData(relative) || nested) problems.push(`copied: ${relative}`);
    if (!file.endsWith(".nft.json")) continue;
    const { files } = JSON.parse(fs.readFileSync(file, "utf8")) as { files?: string[] };
    for (const traced of files ?? []) {
      // A trace lists its files relative to itself, as they lie in the checkout
      // (a build folder inside the checkout) or in the copy (a standalone folder).
      for (const base of [root, buildDir]) {
        const inBase = path.relative(base, path.resolve(path.dirname(file), traced));
        if (!inBase.startsWith("..") && isLocalData(inBase)) problems.push(`traced by ${path.relative(buildDir, file)}: ${inBase}`);
      }
    }
  }
  return [...new Set(problems)];
}

/** Throws, naming the first files, when a build holds local state (see localDataInBuild). */
export function assertNoLocalData(buildDir: string, root: string): void {
  const problems = localDataInBuild(buildDir, root);
  if (problems.length > 0) {
    throw new Error(`The build in ${buildDir} holds local state (${problems.length} files):\n${problems.slice(0, 10).join("\n")}`);
  }
}
