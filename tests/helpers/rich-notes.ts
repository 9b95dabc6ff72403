/**
 * Notes as the browser's editor stores them: full BlockNote JSON with ids,
 * colours, alignment and the constructs Markdown has a form for, so a test can
 * tell whether what Markdown cannot carry survives a round trip.
 */

type Json = Record<string, unknown>;

const DEFAULT_PROPS = { backgroundColor: "default", textColor: "default", textAlignment: "left" };

let counter = 0;
/** A fixed-looking, unique block id (BlockNote's own are UUIDs). */
const nextId = (prefix: string) => `${prefix}-${(counter += 1).toString().padStart(4, "0")}`;

const text = (value: string, styles: Json = {}) => ({ type: "text", text: value, styles });

/** Each type's props at their defaults where they are not DEFAULT_PROPS (the editor stores only the props a type has). */
const TYPE_PROPS: Record<string, Json> = { codeBlock: { language: "text" }, quote: { backgroundColor: "default", textColor: "default" } };

function block(type: string, content: unknown, props: Json = {}, children: Json[] = []): Json {
  return { id: nextId(type), type, props: { ...(TYPE_PROPS[type] ?? DEFAULT_PROPS), ...props }, content, children };
}

export const paragraph = (content: unknown, props: Json = {}, children: Json[] = []) => block("paragraph", content, props, children);
/** A plain paragraph with the id given, as the editor stores one. */
export const paragraphWithId = (id: string, value: string) => ({ ...block("paragraph", [text(value)]), id });
export const heading = (level: number, value: string, props: Json = {}) => block("heading", [text(value)], { level, isToggleable: false, ...props });

function table(rows: string[][]): Json {
  return {
    id: nextId("table"),
    type: "table",
    props: { textColor: "default" },
    content: {
      type: "tableContent",
      columnWidths: rows[0]!.map(() => null),
      headerRows: 1,
      rows: rows.map((cells) => ({
        cells: cells.map((cell) => ({ type: "tableCell", content: [text(cell)], props: { backgroundColor: "default", textColor: "default", textAlignment: "left", colspan: 1, rowspan: 1 } })),
      })),
    },
    children: [],
  };
}

/** Each note: a title and its blocks. Colours, alignment and nesting are set where Markdown has no form for them. */
export function richNotes(): { title: string; content: Json[] }[] {
  return [
    {
      title: "Styled paragraphs",
      content: [
        heading(2, "Overview", { textColor: "blue" }),
        paragraph([text("Centred and red, with "), text("bold", { bold: true }), text(" words.")], { textAlignment: "center", textColor: "red" }),
        paragraph([text("Highlighted background")], { backgroundColor: "yellow" }),
        paragraph([text("A "), { type: "link", href: "https://example.com/a", content: [text("link")] }, text(" and "), text("code", { code: true })], { textAlignment: "right" }),
      ],
    },
    {
      title: "Lists",
      content: [
        block("bulletListItem", [text("first")], { textColor: "green" }, [block("bulletListItem", [text("nested")], { backgroundColor: "blue" })]),
        block("bulletListItem", [text("second")]),
        block("numberedListItem", [text("one")]),
        block("numberedListItem", [text("two")], { textAlignment: "center" }),
        block("checkListItem", [text("open")], { checked: false }),
        block("checkListItem", [text("done")], { checked: true, textColor: "gray" }),
      ],
    },
    {
      title: "Code and tables",
      content: [
        block("codeBlock", [text("const answer = 42;\n  indented();")], { language: "typescript" }),
        table([
          ["Name", "Qty"],
          ["apples", "3"],
        ]),
        block("quote", [text("Said once")], { textColor: "purple" }),
        paragraph([text("Closing words")], { textAlignment: "justify" }),
      ],
    },
  ];
}
