import { z } from "zod";
import { queryInt } from "@/lib/notes/schemas";
import { SETTINGS_SHAPE } from "@/lib/notes/settings";
import { ZTagSchema } from "@/lib/tags/schemas";

const REVISION_LIMIT_MAX = 100;
const REVISION_LIMIT_DEFAULT = 20;

/** A page of a note's history: newest first, continued with the previous page's nextCursor. */
export const ZListRevisionsQuerySchema = z.object({
  limit: queryInt(1, REVISION_LIMIT_MAX, REVISION_LIMIT_DEFAULT).meta({ description: "Page size, 1 to 100.", type: "integer", minimum: 1, maximum: REVISION_LIMIT_MAX, default: REVISION_LIMIT_DEFAULT }),
  // A version number: what an int column holds, so a forged one is a 400, not a database error.
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "Not a cursor from a previous page's nextCursor")
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, "Not a cursor from a previous page's nextCursor"))
    .optional()
    .meta({ description: "Continue after the page that returned this nextCursor.", type: "string" }),
});
export type TListRevisionsQuery = z.infer<typeof ZListRevisionsQuerySchema>;

const ZRevisionAuthorSchema = z
  .object({
    kind: z.enum(["api", "mcp", "browser", "system"]).meta({
      description: "api: an agent through the REST API; mcp: an agent through MCP; browser: the person in the browser; system: an operator's script or the history's start.",
    }),
    email: z.string().nullable().meta({ description: "The verified email the write was made with (null for system)." }),
    agent: z.string().optional().meta({ description: "The agent's name, when the identity service gave one." }),
  })
  .meta({ description: "Who made the change." });
export type TRevisionAuthor = z.infer<typeof ZRevisionAuthorSchema>;

const ZRevisionSummarySchema = z.object({
  id: z.guid(),
  noteId: z.guid(),
  version: z.number().int().meta({ description: "The note version this revision produced; the newest revision is the note as it is now." }),
  author: ZRevisionAuthorSchema,
  restoredFrom: z.number().int().optional().meta({
    description: "Present when this revision is a restore: the version it put back. A restore is always a revision of its own; restoring the revision before it undoes it.",
  }),
  title: z.string(),
  tags: z.array(ZTagSchema).meta({ description: "The note's tags at this revision that still exist." }),
  ...SETTINGS_SHAPE.revision,
  createdAt: z.iso.datetime().meta({
    description: "When the change began: a person's consecutive saves in one visit to the note in the browser, with no other writer or restore between, are one revision while each comes less than 2 minutes after the one before and less than 5 minutes after the first.",
  }),
  updatedAt: z.iso.datetime().meta({ description: "When the change was last written." }),
});
export type TRevisionSummary = z.infer<typeof ZRevisionSummarySchema>;

const ZRevisionSchema = ZRevisionSummarySchema.extend({
  content: z.unknown().meta({ description: "The note's content at this revision, block ids included." }),
  contentText: z.string().meta({ description: "The note's contentText at this revision, exactly as stored." }),
});
export type TRevision = z.infer<typeof ZRevisionSchema>;

export const ZRevisionListResponseSchema = z.object({
  revisions: z.array(ZRevisionSummarySchema).meta({ description: "Newest first." }),
  nextCursor: z.string().optional().meta({ description: "Present when older revisions follow: pass it as `cursor`." }),
});
export type TRevisionList = z.infer<typeof ZRevisionListResponseSchema>;

export const ZRevisionResponseSchema = z.object({ revision: ZRevisionSchema });

/** How GET /api/notes/{id}/revisions/{revisionId} answers: JSON by default, or Markdown (also chosen by `Accept: text/markdown`). */
export const ZRevisionFormatQuerySchema = z.object({
  format: z
    .enum(["json", "markdown"])
    .optional()
    .meta({ description: "json (default) or markdown; overrides the Accept header. Markdown has the revision's title as its first `# ` heading." }),
});
