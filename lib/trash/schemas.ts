import { z } from "zod";
import { ZListNotesQuerySchema, ZNoteSchema } from "@/lib/notes/schemas";

/** A page of the trash: the notes list's own paging fields, with the same limits and defaults. */
const { limit, cursor, offset } = ZListNotesQuerySchema.shape;
export const ZListTrashQuerySchema = z.object({ limit, cursor, offset });

const ZTrashedNoteSchema = ZNoteSchema.extend({
  tags: ZNoteSchema.shape.tags.meta({ description: "The note's tags that still exist; a tag deleted since does not come back." }),
  deletedAt: z.iso.datetime().meta({ description: "When the note was deleted." }),
  expiresAt: z.iso.datetime().meta({ description: "When it leaves the trash for good, unless restored first." }),
});
export type TTrashedNote = z.infer<typeof ZTrashedNoteSchema>;

export const ZTrashListResponseSchema = z.object({
  notes: z.array(ZTrashedNoteSchema).meta({ description: "Deleted notes, most recently deleted first." }),
  total: z.number().int().meta({ description: "Notes in the trash across all pages." }),
  nextCursor: z.string().optional().meta({ description: "Present when more notes follow: pass it as `cursor` for the next page." }),
});
export type TTrashList = z.infer<typeof ZTrashListResponseSchema>;
