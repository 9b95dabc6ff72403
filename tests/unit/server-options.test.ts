import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTAINER_ENTRY } from "@/scripts/build-standalone";
import { SERVER_ENV, SERVER_NODE_ARGS } from "@/scripts/lib/server-options";

// The container image cannot import the flags `npm start` uses; it spells them out.
const dockerfile = readFileSync(path.join(import.meta.dirname, "../../Dockerfile"), "utf8");

describe("the container image's server", () => {
  it("runs Node with the same flags as npm start", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(["node", ...SERVER_NODE_ARGS, CONTAINER_ENTRY]);
  });

  it("sets the same environment as npm start", () => {
    const env = dockerfile.match(/^ENV .*$/gm)?.join(" ").split(/\s+/) ?? [];
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(env).toContain(`${name}=${value}`);
  });
});
