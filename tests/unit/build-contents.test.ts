import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { localDataInBuild } from "@/scripts/lib/build-contents";
import { ROOT } from "@/tests/helpers/test-app";

// No build ships local state: the embedded database, the outbox, the local
// identity service's files, benchmark and test results.

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-build-contents-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe("localDataInBuild", () => {
  it("finds a trace entry that resolves into the checkout's .data, and a copied file under it", () => {
    const root = tempDir();
    const build = path.join(root, ".next-x");
    write(path.join(build, "server/app/api/notes/route.js.nft.json"), JSON.stringify({ version: 1, files: ["../../../../../.data/pglite/PG_VERSION", "../../../chunks/a.js"] }));
    write(path.join(build, "standalone/.data/outbox/mail.json"), "{}");
    write(path.join(build, "bench/results/run.json"), "{}");
    expect(localDataInBuild(build, root).sort()).toEqual([
      "copied: bench/results/run.json",
      "copied: standalone/.data/outbox/mail.json",
      "traced by server/app/api/notes/route.js.nft.json: .data/pglite/PG_VERSION",
    ]);
  });

  it("finds a trace entry that resolves into .data of the copied folder itself", () => {
    const root = tempDir();
    const build = path.join(root, "out");
    write(path.join(build, ".next/server/app/page.js.nft.json"), JSON.stringify({ version: 1, files: ["../../../.data/identity/store.json"] }));
    expect(localDataInBuild(build, root)).toEqual(["traced by .next/server/app/page.js.nft.json: .data/identity/store.json"]);
  });

  it("passes a build with code only (a package's own .data file is code)", () => {
    const root = tempDir();
    const build = path.join(root, ".next-x");
    write(path.join(build, "server/app/page.js.nft.json"), JSON.stringify({ version: 1, files: ["../../../node_modules/@electric-sql/pglite/dist/pglite.data"] }));
    write(path.join(build, "standalone/node_modules/@electric-sql/pglite/dist/pglite.data"), "");
    expect(localDataInBuild(build, root)).toEqual([]);
  });
});

// The builds this checkout has made (the tests' global setup makes both, the
// container's folder inside .next): none of them holds local state.
const builds = [".next", ".open-next"].filter((dir) => fs.existsSync(path.join(ROOT, dir)));
if (builds.length === 0) process.stderr.write("[skip] build contents: no build in this checkout\n");

describe.skipIf(builds.length === 0)("this checkout's builds", () => {
  it.each(builds)("%s holds no local state", (dir) => {
    expect(localDataInBuild(path.join(ROOT, dir), ROOT)).toEqual([]);
  });
});
