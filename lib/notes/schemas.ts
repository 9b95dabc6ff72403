import { z } from "zod";
import { ZTagSchema } from "@/lib/tags/schemas";

/** Query-string integer: digits only, so "abc", "1.5" and "-1" are 400s rather than coerced. */
const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "Expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);

export const NOTE_TITLE_MAX = 500;
export const LIST_LIMIT_MAX = 500;
export const LIST_LIMIT_DEFAULT = 100;

export const ZListNotesQuerySchema = z.object({
  search: z
    .string()
    .max(1000)
    .optional()
    .meta({ description: "Whitespace-separated terms; a note matches when every term occurs (case-insensitively) in its title or contentText." }),
  tagId: z.guid().optional().meta({ description: "Only notes with this tag." }),
  limit: queryInt(1, LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT).meta({
    description: "Page size, 1 to 500.",
    type: "integer",
    minimum: 1,
    maximum: LIST_LIMIT_MAX,
    default: LIST_LIMIT_DEFAULT,
  }),
  offset: queryInt(0, 2_147_483_647, 0).meta({ description: "Notes to skip.", type: "integer", minimum: 0, default: 0 }),
});
export type TListNotesQuery = z.infer<typeof ZListNotesQuerySchema>;

const ZTitleSchema = z.string().trim().min(1).max(NOTE_TITLE_MAX).meta({ description: "Trimmed, 1 to 500 characters." });
// Any JSON value: the body has already been through JSON.parse.
const ZContentSchema = z.unknown().meta({ description: "BlockNote document JSON (an array of blocks); any JSON value is stored as given." });
const ZContentTextSchema = z.string().meta({ description: "Plain-text form of the body, used for search." });
const ZTagIdsSchema = z
  .array(z.guid())
  .max(100)
  .meta({ description: "Tags to assign; ids of tags the user does not own are ignored." });

export const ZCreateNoteSchema = z.object({
  title: ZTitleSchema,
  content: ZContentSchema.optional(),
  contentText: ZContentTextSchema.optional(),
  tagIds: ZTagIdsSchema.optional(),
});
export type TCreateNote = z.infer<typeof ZCreateNoteSchema>;

export const ZUpdateNoteSchema = z
  .object({
    title: ZTitleSchema.optional(),
    content: ZContentSchema.optional(),
    contentText: ZContentTextSchema.optional(),
    tagIds: ZTagIdsSchema.optional().meta({ description: "Replaces the note's tags." }),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Provide at least one of title, content, contentText, tagIds",
  });
export type TUpdateNote = z.infer<typeof ZUpdateNoteSchema>;

export const ZNoteSchema = z.object({
  id: z.guid(),
  title: z.string(),
  content: z.unknown(),
  contentText: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  tags: z.array(ZTagSchema),
});
export type TNote = z.infer<typeof ZNoteSchema>;

export const ZNoteResponseSchema = z.object({ note: ZNoteSchema });
export const ZNoteListResponseSchema = z.object({
  notes: z.array(ZNoteSchema),
  total: z.number().int().meta({ description: "Notes matching the filters across all pages." }),
});
