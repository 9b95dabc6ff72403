import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildProductionApp } from "@/scripts/lib/build-app";

/**
 * The one `next build` both deployments are made from, with standalone output
 * (`npm start` serves it too): `npm run build:standalone` and `npm run
 * build:serverless` each reuse it while the sources it was built from are
 * unchanged, and write nothing into it. The tests build the same.
 */
const RELEASE_DIST = ".next";

/** In the build's folder (which `next build` empties first): what it was built from. */
const SOURCES_FILE = "release-sources.txt";

/** Folders and files whose changes cannot change the build. */
const NOT_BUILT = /^(tests|docs|bench|identity|\.ci)\/|\.md$/;

/**
 * A fingerprint of the sources a build is made from: each file git knows of
 * (tracked, or new and not ignored) with its size and modification time, and
 * the settings the build reads. Null outside a git checkout: then every run builds.
 */
function sourcesFingerprint(root: string): string | null {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) return null;
  const hash = createHash("sha256");
  for (const file of listed.stdout.split("\0").filter(Boolean).sort()) {
    if (NOT_BUILT.test(file)) continue;
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    hash.update(`${file}\0${stat ? `${stat.size}:${stat.mtimeMs}` : "deleted"}\n`);
  }
  for (const name of ["NEXT_BENCH_FLOOR", "NEXT_SKIP_TYPECHECK"]) hash.update(`${name}=${process.env[name] ?? ""}\n`);
  return hash.digest("hex");
}

/** Makes the release build unless the one in RELEASE_DIST is of the current sources; returns its folder. */
export async function ensureReleaseBuild(root: string, log: (line: string) => void): Promise<string> {
  const dist = path.join(root, RELEASE_DIST);
  const stampFile = path.join(dist, SOURCES_FILE);
  const fingerprint = sourcesFingerprint(root);
  const built = fs.existsSync(path.join(dist, "standalone", "server.js")) && fs.existsSync(stampFile) ? fs.readFileSync(stampFile, "utf8") : "";
  if (fingerprint !== null && built === fingerprint) {
    log(`reusing the build in ${RELEASE_DIST} (its sources are unchanged)`);
    return RELEASE_DIST;
  }
  log(`next build (standalone) into ${RELEASE_DIST}`);
  fs.rmSync(stampFile, { force: true });
  await buildProductionApp({ root, distDir: RELEASE_DIST, env: { NEXT_OUTPUT: "standalone" } });
  if (fingerprint !== null) fs.writeFileSync(stampFile, fingerprint);
  return RELEASE_DIST;
}
