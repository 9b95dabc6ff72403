import { describe, expect, it } from "vitest";
import { ZNotesPageQuerySchema } from "@/lib/notes/schemas";

const TAG = "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10";

describe("the notes page's query string", () => {
  it("reads q, tag and page as the list query does", () => {
    expect(ZNotesPageQuerySchema.parse({ q: "  plans ", tag: TAG, page: "3" })).toEqual({ q: "plans", tag: TAG, page: 3, sort: "relevance" });
    expect(ZNotesPageQuerySchema.parse({ q: "plans", sort: "updated" })).toEqual({ q: "plans", page: 1, sort: "updated" });
    expect(ZNotesPageQuerySchema.parse({})).toEqual({ page: 1, sort: "relevance" });
  });

  it.each([
    ["a tag that is not an id", { tag: "work" }, { page: 1, sort: "relevance" }],
    ["a page that is not a whole number", { page: "2abc" }, { page: 1, sort: "relevance" }],
    ["page 0", { page: "0" }, { page: 1, sort: "relevance" }],
    ["a page past the last one allowed", { page: "100001" }, { page: 1, sort: "relevance" }],
    ["a repeated parameter", { q: ["first", "second"], page: ["2", "5"] }, { q: "first", page: 2, sort: "relevance" }],
    ["an order that is not one of ours", { sort: "oldest" }, { page: 1, sort: "relevance" }],
  ])("falls back to the default for %s", (_name, params, expected) => {
    expect(ZNotesPageQuerySchema.parse(params)).toEqual(expected);
  });

  it("drops a NUL from a search and replaces an unpaired surrogate, as the browser's saves do (no database text holds them)", () => {
    expect(ZNotesPageQuerySchema.parse({ q: "pla\u0000ns" }).q).toBe("plans");
    expect(ZNotesPageQuerySchema.parse({ q: "a\ud800" }).q).toBe("a\ufffd");
    expect(ZNotesPageQuerySchema.parse({ q: "\u0000" }).q).toBe("");
  });

  it("cuts a search pasted past the API's limit instead of dropping it", () => {
    expect(ZNotesPageQuerySchema.parse({ q: "x".repeat(1200) }).q).toHaveLength(1000);
  });
});
