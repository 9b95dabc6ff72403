import { describe, expect, it } from "vitest";
import { unshowableBody } from "@/lib/body/document";

const text = (value: string) => [{ type: "text", text: value, styles: {} }];

describe("unshowableBody", () => {
  it("nothing to say of an empty body or blocks of the note schema, in part or whole", () => {
    expect(unshowableBody(undefined)).toBeNull();
    expect(unshowableBody(null)).toBeNull();
    expect(unshowableBody([])).toBeNull();
    expect(unshowableBody([{ type: "paragraph", content: "plain" }])).toBeNull();
    expect(
      unshowableBody([
        { id: "a", type: "heading", props: { level: 2 }, content: text("Title"), children: [{ id: "b", type: "bulletListItem", content: text("point"), children: [] }] },
        { id: "c", type: "checkListItem", props: { checked: true }, content: text("done"), children: [] },
      ]),
    ).toBeNull();
  });

  it("names what the editor would not show as it is: not a list, an unknown type, prop or field, deep inside too", () => {
    expect(unshowableBody({ blocks: [] })).toBe("content: not a list of blocks");
    expect(unshowableBody("text")).toBe("content: not a list of blocks");
    expect(unshowableBody([{ type: "callout", content: text("x") }])).toContain('unknown block type "callout"');
    expect(unshowableBody([{ type: "paragraph", props: { tone: "loud" } }])).toContain('unknown prop "tone"');
    expect(unshowableBody([{ type: "paragraph", extra: 1 }])).toContain('unknown field "extra"');
    expect(unshowableBody([{ type: "paragraph" }, { type: "paragraph", children: [{ type: "mystery" }] }])).toBe('content[1].children[0].type: unknown block type "mystery"');
  });
});
