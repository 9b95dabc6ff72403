import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { API_DOC, withReference } from "@/scripts/api-reference";

describe("docs/api.md", () => {
  it("lists every endpoint of the route table as the route table describes it", () => {
    const page = fs.readFileSync(API_DOC, "utf8");
    // On a difference: npx tsx --conditions=react-server scripts/api-reference.ts rewrites the table.
    expect(page).toBe(withReference(page));
  });
});
