import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextResponse } from "@/lib/errors";

describe("jsonTextResponse", () => {
  it("answers a body given in parts with exactly the UTF-8 of the parts joined", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 12 }), async (parts) => {
        const response = jsonTextResponse(parts);
        expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(parts.join(""), "utf8"))).toBe(true);
      }),
    );
  });

  it("keeps characters outside the Basic Multilingual Plane whole across parts", async () => {
    const parts = ['{"notes":[', '{"title":"Ünïcode 😀 “quotes”"}', ",", '{"title":"日本語"}', '],"total":2}'];
    const response = jsonTextResponse(parts);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ notes: [{ title: "Ünïcode 😀 “quotes”" }, { title: "日本語" }], total: 2 });
  });
});
