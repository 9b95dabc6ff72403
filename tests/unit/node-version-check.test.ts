import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { ROOT } from "@/tests/helpers/test-app";

const preinstall: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.preinstall;

/** package.json's preinstall check, run by this Node as if it were `version`. */
function checkAs(version: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "node-version-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fake = path.join(dir, "version.cjs");
  fs.writeFileSync(
    fake,
    `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } });\n` +
      `Object.defineProperty(process, "version", { value: ${JSON.stringify(`v${version}`)} });\n`,
  );
  const command = preinstall.replace(/^node /, `"${process.execPath}" --require "${fake}" `);
  return spawnSync(command, { shell: true, encoding: "utf8" });
}

// npm install on another Node stops at once with one line saying which Node and where to get it.
describe("the install's Node check", () => {
  it.each(["20.20.2", "22.11.0", "23.1.0", "24.0.0"])("refuses Node %s with one line", (version) => {
    const run = checkAs(version);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `Notes needs Node 22 (22.12 or later); this is Node v${version}. Install Node 22 from https://nodejs.org/en/download (or: nvm install 22), then run npm install again.`,
    ]);
  });

  it.each(["22.12.0", "22.23.3"])("lets Node %s through, silently", (version) => {
    const run = checkAs(version);
    expect([run.status, run.stdout, run.stderr]).toEqual([0, "", ""]);
  });
});
