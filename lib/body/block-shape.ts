/**
 * Whether a value is a block the note schema holds (lib/body/schema.ts),
 * read from the schema itself: each block type's props and content kind,
 * and the styles text may carry. Blocks the editor cannot read would
 * otherwise be stored by targeted edits and break every later reader
 * (the editor, Markdown, the block outline).
 *
 * Relative imports and no `server-only`: the conversion worker loads this
 * file with tsx, outside Next's bundle.
 */
import { noteSchema } from "./schema";

/** Blocks nested deeper than this are reported, not followed (the check recurses once per level). */
export const MAX_BLOCK_DEPTH = 64;

type Mode = "stored" | "partial";
type ContentKind = "inline" | "table" | "plain" | "none";
type PropSpec = { default?: unknown; type?: "string" | "number" | "boolean"; values?: readonly unknown[]; optional?: boolean };
type BlockShape = { content: ContentKind; props: ReadonlyMap<string, PropSpec> };

const CONTENT_KINDS: readonly string[] = ["inline", "table", "plain", "none"];

/** Each block type's props and content kind, as the schema declares them. */
const BLOCK_SHAPES: ReadonlyMap<string, BlockShape> = new Map(
  Object.entries(noteSchema.blockSpecs).map(([type, spec]) => {
    const config = spec.config as { content?: string; propSchema: Record<string, PropSpec> };
    // A content kind added to BlockNote later must be taught here, not waved through.
    if (!CONTENT_KINDS.includes(config.content ?? "")) throw new Error(`Block type "${type}" has content "${config.content}", which block-shape.ts cannot check`);
    return [type, { content: config.content as ContentKind, props: new Map(Object.entries(config.propSchema)) }];
  }),
);

/** Each style's value type: boolean (bold) or string (textColor). */
const STYLE_TYPES: ReadonlyMap<string, "boolean" | "string"> = new Map(
  Object.entries(noteSchema.styleSchema).map(([name, spec]) => [name, (spec as { propSchema: "boolean" | "string" }).propSchema]),
);

// Custom inline content needs its own shape here: fail on load rather than reject it on every edit.
for (const name of Object.keys(noteSchema.inlineContentSchema)) {
  if (name !== "text" && name !== "link" && name !== "inlineImage") throw new Error(`Inline content "${name}" is in the schema, but block-shape.ts only checks text, link and inlineImage`);
}

/** An inline image's props (lib/body/schema.ts), all strings. */
const INLINE_IMAGE_PROPS: ReadonlyMap<string, PropSpec> = new Map(
  Object.entries((noteSchema.inlineContentSchema.inlineImage as { propSchema: Record<string, PropSpec> }).propSchema),
);

/** A table cell's props (BlockNote's TableCellProps; not part of the block schema). */
const TABLE_CELL_PROPS: ReadonlyMap<string, PropSpec> = new Map<string, PropSpec>([
  ["backgroundColor", { default: "default" }],
  ["textColor", { default: "default" }],
  ["textAlignment", { default: "left", values: ["left", "center", "right", "justify"] }],
  ["colspan", { type: "number" }],
  ["rowspan", { type: "number" }],
]);
const SPAN_PROPS = new Set(["colspan", "rowspan"]);

const BLOCK_FIELDS = new Set(["id", "type", "props", "content", "children"]);
const TEXT_FIELDS = new Set(["type", "text", "styles"]);
const LINK_FIELDS = new Set(["type", "href", "content"]);
const INLINE_IMAGE_FIELDS = new Set(["type", "props", "content"]);
const TABLE_FIELDS = new Set(["type", "columnWidths", "headerRows", "headerCols", "rows"]);
const ROW_FIELDS = new Set(["cells"]);
const CELL_FIELDS = new Set(["type", "props", "content"]);

/** The block types of the note schema. */
export const BLOCK_TYPES: readonly string[] = [...BLOCK_SHAPES.keys()];

/** A block type's content kind, or undefined for a type the schema does not have. */
export function blockContentKind(type: string): ContentKind | undefined {
  return BLOCK_SHAPES.get(type)?.content;
}

/** Whether blocks of `type` (a type of the schema) have the prop `name`. */
export function blockHasProp(type: string, name: string): boolean {
  return shapeOf(type).props.has(name);
}

/** Null when `block` is a whole, valid block of the note schema as stored (a stored block: id string, type, props, content, children all present, as editor.document has them); otherwise the first problem, as "<path>: <reason>", path starting with `path`. */
export function storedBlockProblem(block: unknown, path: string): string | null {
  return blockProblem(block, path, "stored", 1);
}

/** Same for a partial block as clients send it (BlockNote's PartialBlock: id/props/content/children optional, content may be a plain string for inline content, props partial). */
export function partialBlockProblem(block: unknown, path: string): string | null {
  return blockProblem(block, path, "partial", 1);
}

/** Null when `props` are props a block of `type` (a type of the schema) may be given, in part; otherwise the first problem. */
export function partialPropsProblem(type: string, props: unknown, path: string): string | null {
  return propsProblem(props, shapeOf(type).props, path, `a "${type}" block`);
}

/** Null when `content` is content a block of `type` (a type of the schema) may be given, as a client sends it; otherwise the first problem. */
export function partialContentProblem(type: string, content: unknown, path: string): string | null {
  return contentProblem(content, type, shapeOf(type).content, path, "partial");
}

function shapeOf(type: string): BlockShape {
  const shape = BLOCK_SHAPES.get(type);
  if (!shape) throw new Error(`"${type}" is not a block type of the note schema`);
  return shape;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const field = (path: string, name: string) => (IDENTIFIER.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`);
const item = (path: string, index: number) => `${path}[${index}]`;
const quote = (value: unknown) => JSON.stringify(value);

function unknownField(value: Record<string, unknown>, allowed: ReadonlySet<string>, path: string): string | null {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return `${path}: unknown field ${quote(key)}`;
  return null;
}

function blockProblem(block: unknown, path: string, mode: Mode, depth: number): string | null {
  if (depth > MAX_BLOCK_DEPTH) return `${path}: blocks nested more than ${MAX_BLOCK_DEPTH} levels deep`;
  if (!isRecord(block)) return `${path}: must be a block (an object)`;
  const extra = unknownField(block, BLOCK_FIELDS, path);
  if (extra) return extra;
  if (block.id === undefined) {
    if (mode === "stored") return `${field(path, "id")}: missing`;
  } else if (typeof block.id !== "string" || block.id === "") return `${field(path, "id")}: must be a non-empty string`;
  const type = block.type;
  if (type === undefined) return `${field(path, "type")}: missing`;
  if (typeof type !== "string") return `${field(path, "type")}: must be a string`;
  const shape = BLOCK_SHAPES.get(type);
  if (!shape) return `${field(path, "type")}: unknown block type ${quote(type)}`;
  if (block.props === undefined) {
    if (mode === "stored") return `${field(path, "props")}: missing`;
  } else {
    const problem = propsProblem(block.props, shape.props, field(path, "props"), `a "${type}" block`);
    if (problem) return problem;
  }
  const content = contentProblem(block.content, type, shape.content, field(path, "content"), mode);
  if (content) return content;
  const childrenPath = field(path, "children");
  if (block.children === undefined) return mode === "stored" ? `${childrenPath}: missing` : null;
  if (!Array.isArray(block.children)) return `${childrenPath}: must be a list of blocks`;
  for (let i = 0; i < block.children.length; i += 1) {
    const problem = blockProblem(block.children[i], item(childrenPath, i), mode, depth + 1);
    if (problem) return problem;
  }
  return null;
}

function propsProblem(props: unknown, specs: ReadonlyMap<string, PropSpec>, path: string, owner: string): string | null {
  if (!isRecord(props)) return `${path}: must be an object of props`;
  for (const [name, value] of Object.entries(props)) {
    const spec = specs.get(name);
    if (!spec) return `${path}: unknown prop ${quote(name)} for ${owner}`;
    // An unset prop in memory (a number prop without a default); JSON drops the key.
    if (value === undefined) continue;
    const problem = propValueProblem(spec, value);
    if (problem) return `${field(path, name)}: ${problem}`;
  }
  return null;
}

function propValueProblem(spec: PropSpec, value: unknown): string | null {
  if (spec.values) return spec.values.includes(value) ? null : `must be one of ${spec.values.map(quote).join(", ")}`;
  const kind = spec.type ?? typeof spec.default;
  if (kind === "boolean") return typeof value === "boolean" ? null : "must be a boolean";
  if (kind === "number") return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
  return typeof value === "string" ? null : "must be a string";
}

function contentProblem(content: unknown, type: string, kind: ContentKind, path: string, mode: Mode): string | null {
  if (kind === "none") return content === undefined ? null : `${path}: must be absent: a "${type}" block has no content`;
  if (content === undefined) return mode === "stored" ? `${path}: missing` : null;
  if (kind === "table") return tableProblem(content, path, mode);
  return inlineListProblem(content, path, mode, kind === "plain");
}

/**
 * Inline content (or a code block's plain text): a list of text and links;
 * as a client sends it, also a string, or strings among the items.
 */
function inlineListProblem(content: unknown, path: string, mode: Mode, plain: boolean): string | null {
  if (mode === "partial" && typeof content === "string") return null;
  const wanted = plain ? "a list of plain text" : "a list of inline content";
  if (!Array.isArray(content)) return `${path}: must be ${wanted}`;
  for (let i = 0; i < content.length; i += 1) {
    const entry: unknown = content[i];
    const at = item(path, i);
    if (typeof entry === "string") {
      if (mode === "partial") continue;
      return `${at}: must be ${plain ? "text" : "text or a link"} (an object)`;
    }
    if (!isRecord(entry)) return `${at}: must be ${plain ? "text" : "text or a link"}`;
    if (entry.type === "text") {
      const problem = textProblem(entry, at, mode, plain);
      if (problem) return problem;
    } else if (entry.type === "link" && !plain) {
      const problem = linkProblem(entry, at, mode);
      if (problem) return problem;
    } else if (entry.type === "link") {
      return `${field(at, "type")}: a code block's text holds no links`;
    } else if (entry.type === "inlineImage" && !plain) {
      const problem = inlineImageProblem(entry, at, mode);
      if (problem) return problem;
    } else {
      return `${field(at, "type")}: unknown inline content type ${quote(entry.type)}`;
    }
  }
  return null;
}

function textProblem(text: Record<string, unknown>, path: string, mode: Mode, plain: boolean): string | null {
  const extra = unknownField(text, TEXT_FIELDS, path);
  if (extra) return extra;
  if (typeof text.text !== "string") return `${field(path, "text")}: ${text.text === undefined ? "missing" : "must be a string"}`;
  const stylesPath = field(path, "styles");
  if (text.styles === undefined) return mode === "stored" ? `${stylesPath}: missing` : null;
  if (!isRecord(text.styles)) return `${stylesPath}: must be an object of styles`;
  for (const [name, value] of Object.entries(text.styles)) {
    const kind = STYLE_TYPES.get(name);
    if (!kind) return `${stylesPath}: unknown style ${quote(name)}`;
    // A code block's text is unstyled. Stored blocks written before code blocks were plain may still carry styles, which the editor drops.
    if (plain && mode === "partial") return `${stylesPath}: a code block's text takes no styles`;
    if (kind === "boolean" && typeof value !== "boolean") return `${field(stylesPath, name)}: must be a boolean`;
    if (kind === "string" && typeof value !== "string") return `${field(stylesPath, name)}: must be a string`;
  }
  return null;
}

function inlineImageProblem(image: Record<string, unknown>, path: string, mode: Mode): string | null {
  const extra = unknownField(image, INLINE_IMAGE_FIELDS, path);
  if (extra) return extra;
  // As JSON carries it: an inline image has no content, which the editor's document holds as undefined.
  if (image.content !== undefined) return `${field(path, "content")}: must be absent: an inline image has no content`;
  if (image.props === undefined) return mode === "stored" ? `${field(path, "props")}: missing` : null;
  return propsProblem(image.props, INLINE_IMAGE_PROPS, field(path, "props"), "an inline image");
}

function linkProblem(link: Record<string, unknown>, path: string, mode: Mode): string | null {
  const extra = unknownField(link, LINK_FIELDS, path);
  if (extra) return extra;
  if (typeof link.href !== "string") return `${field(path, "href")}: ${link.href === undefined ? "missing" : "must be a string"}`;
  const contentPath = field(path, "content");
  if (mode === "partial" && typeof link.content === "string") return null;
  if (!Array.isArray(link.content)) {
    if (link.content === undefined) return `${contentPath}: missing`;
    return `${contentPath}: must be a list of text`;
  }
  for (let i = 0; i < link.content.length; i += 1) {
    const entry: unknown = link.content[i];
    const at = item(contentPath, i);
    if (!isRecord(entry)) return `${at}: must be text (an object)`;
    if (entry.type !== "text") return `${field(at, "type")}: must be "text"`;
    const problem = textProblem(entry, at, mode, false);
    if (problem) return problem;
  }
  return null;
}

const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;

function tableProblem(table: unknown, path: string, mode: Mode): string | null {
  if (!isRecord(table)) return `${path}: must be table content (an object)`;
  const extra = unknownField(table, TABLE_FIELDS, path);
  if (extra) return extra;
  if (table.type !== "tableContent") return `${field(path, "type")}: must be "tableContent"`;
  const widthsPath = field(path, "columnWidths");
  if (table.columnWidths === undefined) {
    if (mode === "stored") return `${widthsPath}: missing`;
  } else {
    if (!Array.isArray(table.columnWidths)) return `${widthsPath}: must be a list of numbers or nulls`;
    for (let i = 0; i < table.columnWidths.length; i += 1) {
      const width: unknown = table.columnWidths[i];
      // null in JSON; undefined in the editor's own document (a column never resized).
      if (width !== null && width !== undefined && !(typeof width === "number" && Number.isFinite(width) && width >= 0)) {
        return `${item(widthsPath, i)}: must be a number or null`;
      }
    }
  }
  for (const name of ["headerRows", "headerCols"] as const) {
    if (table[name] !== undefined && !isCount(table[name])) return `${field(path, name)}: must be a whole number of 0 or more`;
  }
  const rowsPath = field(path, "rows");
  if (!Array.isArray(table.rows)) return `${rowsPath}: ${table.rows === undefined ? "missing" : "must be a list of rows"}`;
  if (table.rows.length === 0) return `${rowsPath}: must hold at least one row`;
  for (let r = 0; r < table.rows.length; r += 1) {
    const row: unknown = table.rows[r];
    const rowPath = item(rowsPath, r);
    if (!isRecord(row)) return `${rowPath}: must be a row (an object with cells)`;
    const rowExtra = unknownField(row, ROW_FIELDS, rowPath);
    if (rowExtra) return rowExtra;
    const cellsPath = field(rowPath, "cells");
    if (!Array.isArray(row.cells)) return `${cellsPath}: ${row.cells === undefined ? "missing" : "must be a list of cells"}`;
    if (row.cells.length === 0) return `${cellsPath}: must hold at least one cell`;
    for (let c = 0; c < row.cells.length; c += 1) {
      const problem = cellProblem(row.cells[c], item(cellsPath, c), mode);
      if (problem) return problem;
    }
  }
  return null;
}

/** A table cell: a tableCell object, or (BlockNote's shorthand) its inline content alone. */
function cellProblem(cell: unknown, path: string, mode: Mode): string | null {
  if (Array.isArray(cell) || (mode === "partial" && typeof cell === "string")) return inlineListProblem(cell, path, mode, false);
  if (!isRecord(cell)) return `${path}: must be a table cell`;
  const extra = unknownField(cell, CELL_FIELDS, path);
  if (extra) return extra;
  if (cell.type !== "tableCell") return `${field(path, "type")}: must be "tableCell"`;
  const propsPath = field(path, "props");
  if (cell.props === undefined) {
    if (mode === "stored") return `${propsPath}: missing`;
  } else {
    const problem = propsProblem(cell.props, TABLE_CELL_PROPS, propsPath, "a table cell");
    if (problem) return problem;
    const props = cell.props as Record<string, unknown>;
    for (const name of SPAN_PROPS) {
      const span = props[name];
      if (span !== undefined && !(Number.isInteger(span) && (span as number) >= 1)) return `${field(propsPath, name)}: must be a whole number of 1 or more`;
    }
  }
  const contentPath = field(path, "content");
  if (cell.content === undefined) return mode === "stored" ? `${contentPath}: missing` : null;
  return inlineListProblem(cell.content, contentPath, mode, false);
}
