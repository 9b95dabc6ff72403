import { z } from "zod";
import { CONTENT_LIMITS, contentLimitViolation } from "@/lib/body/content-limits";
import { isStorableJson, storableText, toPlainJson, toStorableString, UNSTORABLE_MESSAGE } from "@/lib/db/storable-text";
import { decodeCursor } from "@/lib/notes/cursor";
import { SETTING_KEYS, SETTINGS_SHAPE } from "@/lib/notes/settings";
import { ZTagSchema } from "@/lib/tags/schemas";

/** Query-string integer: digits only, so "abc", "1.5" and "-1" are 400s rather than coerced. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "Expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);

export const NOTE_TITLE_MAX = 500;
export const SEARCH_MAX = 1000;
const LIST_LIMIT_MAX = 500;
const LIST_LIMIT_DEFAULT = 100;

/** Query-string boolean: "true" or "false" (described as the boolean it is, see lib/operations/json-schema.ts). */
export const queryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");

export const ZListNotesQuerySchema = z
  .object({
  search: z
    .string()
    .max(SEARCH_MAX)
    .optional()
    .meta({
      description:
        "Whitespace-separated terms; a note matches when every term occurs in its title or contentText, ignoring case by Unicode full case folding (ΚΟΣΜΟΣ, κόσμος and κοσμοσ differ only by the accent; Straße matches STRASSE).",
    }),
  sort: z
    .enum(["updated", "relevance"])
    .optional()
    .meta({
      description:
        "updated (default): most recently updated first. relevance, with a search: the best matches first (a term in the title counts most, then a term that is a whole word, then one that starts a word), ties most recently updated first; pages by offset, without nextCursor.",
    }),
  highlight: queryBoolean.optional().meta({
    description: "true, with a search: each note carries `snippet`, a short excerpt of its text around the first match, HTML-escaped, with every match in <mark>…</mark>.",
  }),
  tagId: z.guid().optional().meta({ description: "Only notes with this tag. A tag that is not yours or no longer exists matches no notes (200, not 404); only a malformed id is a 400." }),
  pinned: queryBoolean.optional().meta({
    description: "true: only pinned notes; false: only notes not pinned. Combines with search and tagId; the order stays the same. List pinned=true, then pinned=false, to show pinned notes first.",
  }),
  limit: queryInt(1, LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT).meta({
    description: "Page size, 1 to 500.",
    type: "integer",
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
  }),
  cursor: z
    .string()
    .transform((value, ctx) => {
      const cursor = decodeCursor(value);
      if (!cursor) ctx.addIssue({ code: "custom", message: "Not a cursor from a previous page's nextCursor" });
      return cursor ?? z.NEVER;
    })
    .optional()
    .meta({ description: "Continue after the page that returned this nextCursor (constant time at any depth)." }),
  offset: queryInt(0, 2_147_483_647, 0).meta({ description: "Notes to skip.", type: "integer", minimum: 0, default: 0 }),
  })
  .refine((query) => !(query.cursor && query.sort === "relevance"), {
    message: "cursor continues the default order; page relevance results with offset",
    path: ["cursor"],
  });

const NOTES_PAGE_MAX = 100_000;
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/**
 * The notes page's address (`?q=&tag=&page=`), read with the list query's own
 * fields so the page and GET /api/notes accept the same values. It is typed by
 * people: a value the API would refuse falls back to its default (no search,
 * all tags, the first page) instead of an error page, and a search pasted past
 * the limit is cut to it.
 */
export const ZNotesPageQuerySchema = z.object({
  q: z
    .preprocess((value) => {
      const text = firstOf(value);
      // What the search box sends, as the browser's saves take text: a NUL dropped, an unpaired surrogate replaced.
      return typeof text === "string" ? toStorableString(text.slice(0, SEARCH_MAX)).trim() : text;
    }, ZListNotesQuerySchema.shape.search)
    .catch(undefined),
  tag: z.preprocess(firstOf, ZListNotesQuerySchema.shape.tagId).catch(undefined),
  /** A search lists the best matches first unless `sort=updated` asks for the newest. */
  sort: z.preprocess(firstOf, z.enum(["updated", "relevance"])).catch("relevance"),
  page: z.preprocess(firstOf, queryInt(1, NOTES_PAGE_MAX, 1)).catch(1),
});

const ZTitleSchema = storableText().trim().min(1).max(NOTE_TITLE_MAX).meta({ description: "Trimmed, 1 to 500 characters." });
// Any JSON value: the body has already been through JSON.parse. The limits
// are checked first, iteratively, so nothing after them (nor the database)
// sees JSON nested deep enough to exhaust a stack.
const ZContentSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const violation = contentLimitViolation(value);
    if (violation) ctx.addIssue({ code: "custom", message: violation, abort: true });
  })
  .refine(isStorableJson, { message: UNSTORABLE_MESSAGE, abort: true })
  // As JSON carries it: the browser's editor sends `undefined` inside arrays.
  .transform((value) => toPlainJson(value))
  .meta({
    description: `BlockNote document JSON (an array of blocks); any JSON value is stored as given. At most ${CONTENT_LIMITS.maxBytes.toLocaleString("en-US")} bytes as JSON, ${CONTENT_LIMITS.maxBlocks.toLocaleString("en-US")} blocks (nested children included) and ${CONTENT_LIMITS.maxDepth} levels of JSON nesting; over a limit is a 400.`,
  });
const ZContentTextSchema = storableText().meta({ description: "Plain-text form of the body, used for search." });
/** Markdown is converted in the worker pool under a time and memory budget; this bounds one request's input. */
const CONTENT_MARKDOWN_MAX = CONTENT_LIMITS.maxMarkdownChars;
const ZContentMarkdownSchema = storableText().max(CONTENT_MARKDOWN_MAX).meta({
  description:
    "The body as Markdown, instead of content: converted to BlockNote blocks, and contentText derived from them unless given. The note's whole Markdown as read (GET ?format=markdown) may be sent back as it is: a first line that is the title's `# ` line is the title, not a block (to rename, send title). Not together with content; at most 100,000 characters, and the blocks it converts to are held to content's limits (400). A conversion that goes over its time or memory budget answers 422 and writes nothing.",
});
const ZTagIdsSchema = z
  .array(z.guid())
  .max(100)
  .meta({ description: "Tags to assign; ids of tags the user does not own are ignored." });

/** content and contentMarkdown are two spellings of the same body: one at most. */
const oneBody = {
  check: (body: { content?: unknown; contentMarkdown?: string }) => body.content === undefined || body.contentMarkdown === undefined,
  params: { message: "Give content or contentMarkdown, not both", path: ["contentMarkdown"] },
};

export const ZCreateNoteSchema = z
  .object({
    title: ZTitleSchema,
    content: ZContentSchema.optional(),
    contentMarkdown: ZContentMarkdownSchema.optional(),
    contentText: ZContentTextSchema.optional(),
    tagIds: ZTagIdsSchema.optional(),
    ...SETTINGS_SHAPE.create,
  })
  .refine(oneBody.check, oneBody.params);
export type TCreateNote = z.infer<typeof ZCreateNoteSchema>;

export const ZUpdateNoteSchema = z
  .object({
    title: ZTitleSchema.optional(),
    content: ZContentSchema.optional(),
    contentMarkdown: ZContentMarkdownSchema.optional(),
    contentText: ZContentTextSchema.optional(),
    tagIds: ZTagIdsSchema.optional().meta({ description: "Replaces the note's tags." }),
    ...SETTINGS_SHAPE.update,
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: `Provide at least one of title, content, contentMarkdown, contentText, tagIds, ${SETTING_KEYS.join(", ")}`,
  })
  .refine(oneBody.check, oneBody.params);
export type TUpdateNote = z.infer<typeof ZUpdateNoteSchema>;

export const ZNoteSchema = z.object({
  id: z.guid(),
  title: z.string(),
  content: z.unknown(),
  contentText: z.string(),
  ...SETTINGS_SHAPE.note,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  tags: z.array(ZTagSchema),
});
export type TNote = z.infer<typeof ZNoteSchema>;

export const ZNoteResponseSchema = z.object({ note: ZNoteSchema });

/** The 412 of a conditional write: the note as it is now, to merge with and retry. */
export const ZNoteModifiedResponseSchema = z.object({
  error: z.literal("Note was modified"),
  note: ZNoteSchema.meta({ description: "The current note; its version is in the ETag header." }),
});

/** How GET /api/notes/{id} answers: JSON by default, or Markdown (also chosen by `Accept: text/markdown`). */
export const ZNoteFormatQuerySchema = z.object({
  format: z
    .enum(["json", "markdown", "blocks"])
    .optional()
    .meta({
      description:
        "json (default), markdown or blocks; overrides the Accept header. Markdown has the title as its first `# ` heading. blocks: `{ note, blocks }`, each block as `{ id, type, text }` (plus a heading's `level` and nested `children`), to address blocks in POST /api/notes/{id}/edits.",
    }),
});

export const ZNoteListResponseSchema = z.object({
  notes: z.array(
    ZNoteSchema.extend({
      snippet: z.string().optional().meta({ description: "With highlight=true and a search: the text around the first match, HTML-escaped, matches in <mark>…</mark>." }),
    }),
  ),
  total: z.number().int().meta({ description: "Notes matching the filters across all pages." }),
  nextCursor: z.string().optional().meta({ description: "Present when more notes follow: pass it as `cursor` for the next page." }),
});

// Targeted edits (POST /api/notes/{id}/edits, MCP edit_note): a list of
// operations applied in order, all or nothing, to the note as it is when the
// edit runs (lib/notes/edits.ts).

const EDIT_OPERATIONS_MAX = 100;
const ZBlockIdSchema = storableText().min(1).max(200).meta({ description: "A block's id, from the note's content or GET ?format=blocks." });
/** New blocks as BlockNote JSON, held to content's limits; a block without an id (or with one the note uses) gets a new one. */
const ZBlocksSchema = z
  .array(z.looseObject({ type: z.string().min(1) }))
  .superRefine((value, ctx) => {
    const violation = contentLimitViolation(value);
    if (violation) ctx.addIssue({ code: "custom", message: violation, abort: true });
  })
  .refine(isStorableJson, { message: UNSTORABLE_MESSAGE, abort: true })
  .transform((value) => toPlainJson(value) as Record<string, unknown>[]);
/** What an insert puts in: BlockNote blocks or Markdown, exactly one. */
const insertSource = {
  blocks: ZBlocksSchema.optional().meta({ description: "Blocks as BlockNote JSON; a block without an id gets one." }),
  markdown: storableText()
    .max(CONTENT_MARKDOWN_MAX)
    .optional()
    .meta({ description: "The same as Markdown, converted to blocks as contentMarkdown is." }),
};
const oneSource = {
  check: (op: { blocks?: unknown; markdown?: string }) => (op.blocks === undefined) !== (op.markdown === undefined),
  params: { message: "Give blocks or markdown, exactly one", path: ["markdown"] },
};
const ZSectionSchema = {
  heading: storableText().min(1).max(NOTE_TITLE_MAX).meta({ description: "The section's heading text, exactly (surrounding spaces aside)." }),
  level: z.number().int().min(1).max(6).optional().meta({ description: "The heading's level, when several headings read the same." }),
};

const ZEditOperationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("append"), ...insertSource }).refine(oneSource.check, oneSource.params).meta({ description: "Add blocks at the end." }),
  z.object({ op: z.literal("prepend"), ...insertSource }).refine(oneSource.check, oneSource.params).meta({ description: "Add blocks at the start." }),
  z
    .object({
      op: z.literal("replace_text"),
      find: storableText().min(1).max(10_000).meta({ description: "Text to find in the blocks' inline text (case-sensitive; across bold, italic and the like)." }),
      replace: storableText().max(CONTENT_MARKDOWN_MAX).meta({ description: "Text to put in its place; it takes the style of the text where the match starts." }),
      expectedCount: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .default(1)
        .meta({ description: "How many matches there must be (default 1); any other count fails the edit, naming the count found." }),
    })
    .meta({ description: "Replace every match of a text." }),
  z
    .object({
      op: z.literal("replace_section"),
      ...ZSectionSchema,
      ...insertSource,
      keepHeading: z.boolean().default(false).meta({ description: "true: keep the heading block and replace only the blocks under it." }),
    })
    .refine(oneSource.check, oneSource.params)
    .meta({ description: "Replace a section: its heading and the blocks up to the next heading of the same or a higher level." }),
  z
    .object({ op: z.literal("insert_before_section"), ...ZSectionSchema, ...insertSource })
    .refine(oneSource.check, oneSource.params)
    .meta({ description: "Add blocks just before a section's heading." }),
  z
    .object({ op: z.literal("insert_after_section"), ...ZSectionSchema, ...insertSource })
    .refine(oneSource.check, oneSource.params)
    .meta({ description: "Add blocks at the end of a section (before the next heading of its level or higher)." }),
  z
    .object({
      op: z.literal("update_block"),
      blockId: ZBlockIdSchema,
      type: storableText().min(1).max(100).optional().meta({ description: "A new block type." }),
      props: z
        .record(z.string(), z.unknown())
        .refine(isStorableJson, { message: UNSTORABLE_MESSAGE })
        .optional()
        .meta({ description: "Props to set (merged over the block's own, e.g. textColor)." }),
      content: ZContentSchema.optional().meta({ description: "New inline content (a string or BlockNote inline content); replaces the block's." }),
      children: ZBlocksSchema.optional().meta({ description: "New nested blocks; replace the block's." }),
    })
    .refine((op) => op.type !== undefined || op.props !== undefined || op.content !== undefined || op.children !== undefined, {
      message: "Give at least one of type, props, content, children",
    })
    .meta({ description: "Change one block, keeping its id." }),
  z
    .object({
      op: z.literal("move_block"),
      blockId: ZBlockIdSchema,
      before: ZBlockIdSchema.optional().meta({ description: "Put it just before this block (at that block's level)." }),
      after: ZBlockIdSchema.optional().meta({ description: "Put it just after this block." }),
      to: z.enum(["start", "end"]).optional().meta({ description: "Put it first or last in the note." }),
    })
    .refine((op) => [op.before, op.after, op.to].filter((value) => value !== undefined).length === 1, {
      message: "Give exactly one of before, after, to",
    })
    .meta({ description: "Move one block (with its nested blocks)." }),
  z.object({ op: z.literal("delete_block"), blockId: ZBlockIdSchema }).meta({ description: "Delete one block (with its nested blocks)." }),
  z.object({ op: z.literal("set_title"), title: ZTitleSchema }).meta({ description: "Change the title." }),
  z.object({ op: z.literal("add_tags"), tagIds: ZTagIdsSchema.min(1) }).meta({ description: "Add tags; ids of tags the user does not own are ignored." }),
  z.object({ op: z.literal("remove_tags"), tagIds: ZTagIdsSchema.min(1) }).meta({ description: "Take tags off the note." }),
]);
export type TEditOperation = z.infer<typeof ZEditOperationSchema>;

export const ZEditNoteSchema = z
  .object({
    operations: z
      .array(ZEditOperationSchema)
      .min(1)
      .max(EDIT_OPERATIONS_MAX)
      .meta({ description: `1 to ${EDIT_OPERATIONS_MAX} operations, applied in order to the note as it is now; if one cannot apply, none is written.` }),
  })
  .refine(
    (body) => body.operations.reduce((sum, op) => sum + ("markdown" in op && op.markdown ? op.markdown.length : 0), 0) <= CONTENT_MARKDOWN_MAX,
    { message: `The operations' Markdown may total at most ${CONTENT_MARKDOWN_MAX.toLocaleString("en-US")} characters`, path: ["operations"] },
  );

/** One block of a note as an agent addresses it (GET ?format=blocks). */
const ZBlockOutlineFields = {
  id: z.string().nullable().meta({ description: "The id edits address it by (null for a block stored without one)." }),
  type: z.string(),
  text: z.string().meta({ description: "Its own plain text, nested blocks apart." }),
  level: z.number().int().optional().meta({ description: "A heading's level." }),
};
export type TBlockOutline = { id: string | null; type: string; text: string; level?: number; children?: TBlockOutline[] };
// Not recursive in the schema (the OpenAPI document inlines every schema): nested blocks have the same shape, one level checked.
const ZBlockOutlineSchema = z.object({
  ...ZBlockOutlineFields,
  children: z
    .array(z.looseObject(ZBlockOutlineFields))
    .optional()
    .meta({ description: "Nested blocks, when it has any: the same shape, their own nested blocks in `children` likewise." }),
});

export const ZNoteBlocksResponseSchema = z.object({
  note: z.object({ id: z.guid(), title: z.string(), updatedAt: z.iso.datetime(), tags: z.array(ZTagSchema) }),
  blocks: z.array(ZBlockOutlineSchema),
});
export type TNoteBlocksResponse = z.infer<typeof ZNoteBlocksResponseSchema>;
