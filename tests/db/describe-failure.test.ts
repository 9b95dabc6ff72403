import { describe, expect, it } from "vitest";
import { describeFailure } from "@/lib/db/describe-failure";

describe("describeFailure", () => {
  it("keeps one line and drops the engine's span trace", () => {
    const error = new Error(
      "Error querying the database: ERROR: boom\nHINT: try again\n   0: sql_schema_connector::apply_migration::apply_script\n           at x.rs:1",
    );
    expect(describeFailure(error)).toBe("Error querying the database: ERROR: boom HINT: try again");
  });

  it.each([
    ["postgresql://app:s3cret@db/notes", "s3cret"],
    ["postgresql://app:p%40ss@db/notes", "p@ss"],
  ])("never shows the password of %s", (url, password) => {
    const error = new Error(`could not connect to ${url} (password ${password})`);
    const line = describeFailure(error, url);
    expect(line).not.toContain(password);
    expect(line).toContain("***");
  });

  it("describes values that are not errors", () => {
    expect(describeFailure("plain text")).toBe("plain text");
  });
});
