import path from "node:path";
import { describe, expect, it } from "vitest";
import { readIdentityEnv } from "@/identity/env";

describe("the identity service's data folder", () => {
  it("is <NOTES_DATA_DIR>/identity, as npm run dev keeps it, unless IDENTITY_DATA_DIR names another", () => {
    expect(readIdentityEnv({}).dataDir).toBe(path.resolve(".data/identity"));
    expect(readIdentityEnv({ NOTES_DATA_DIR: "/srv/notes" }).dataDir).toBe("/srv/notes/identity");
    expect(readIdentityEnv({ NOTES_DATA_DIR: "/srv/notes", IDENTITY_DATA_DIR: "/srv/ids" }).dataDir).toBe("/srv/ids");
    expect(readIdentityEnv({ NOTES_DATA_DIR: "", IDENTITY_DATA_DIR: "" }).dataDir).toBe(path.resolve(".data/identity"));
  });
});
