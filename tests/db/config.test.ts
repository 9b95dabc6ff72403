import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "@/lib/db/config";

const cwd = "/srv/notes";

describe("parseDatabaseUrl", () => {
  it.each([
    [undefined, { kind: "embedded", dir: path.join(cwd, ".data/postgres") }],
    ["", { kind: "embedded", dir: path.join(cwd, ".data/postgres") }],
    ["  ", { kind: "embedded", dir: path.join(cwd, ".data/postgres") }],
    ["pglite:memory", { kind: "pglite", dataDir: null }],
    ["pglite:.data/other", { kind: "pglite", dataDir: path.join(cwd, ".data/other") }],
    ["pglite:../shared/db", { kind: "pglite", dataDir: "/srv/shared/db" }],
    ["pglite:/var/lib/notes", { kind: "pglite", dataDir: "/var/lib/notes" }],
    ["postgres://app:pw@db:5432/notes", { kind: "postgres", url: "postgres://app:pw@db:5432/notes" }],
    ["postgresql://db/notes?sslmode=require", { kind: "postgres", url: "postgresql://db/notes?sslmode=require" }],
  ])("%j", (url, expected) => {
    expect(parseDatabaseUrl(url, cwd)).toEqual(expected);
  });

  it("defaults cwd to the working directory", () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ kind: "embedded", dir: path.join(process.cwd(), ".data/postgres") });
  });

  it.each(["mysql://root:hunter2@db/notes", "sqlite:notes.db", "postgres:/user:hunter2@db", "pglite:", "hunter2"])(
    "rejects %j without echoing it",
    (url) => {
      expect(() => parseDatabaseUrl(url, cwd)).toThrow(/DATABASE_URL/);
      expect(() => parseDatabaseUrl(url, cwd)).not.toThrow(/hunter2/);
    },
  );
});
