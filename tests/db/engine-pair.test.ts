import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_PAIR } from "@/lib/db/schema-engine";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Read from the folder rather than resolved: the engine package exports no ./package.json.
function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

describe("schema engine pairing", () => {
  it("runs migrations with the schema-engine build recorded for the Prisma release in use", () => {
    expect({ prisma: installedVersion("prisma"), schemaEngineWasm: installedVersion("@prisma/schema-engine-wasm") }).toEqual(ENGINE_PAIR);
  });

  it("uses the schema-engine build compiled from the Prisma release's own engine", () => {
    expect(installedVersion("@prisma/schema-engine-wasm")).toBe(installedVersion("@prisma/engines-version"));
  });

  it("pins both packages to exact versions, so neither moves alone", () => {
    const { dependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect({ prisma: dependencies.prisma, schemaEngineWasm: dependencies["@prisma/schema-engine-wasm"] }).toEqual(ENGINE_PAIR);
  });
});
