import { z } from "zod";
import { queryInt } from "@/lib/notes/schemas";

const CHANGES_LIMIT_MAX = 500;
const CHANGES_LIMIT_DEFAULT = 100;
/** The longest a request may wait for a change (seconds). */
const CHANGES_WAIT_MAX = 30;

const NOT_A_CURSOR = "Not a cursor from this feed's `cursor`";

/** What GET /api/changes and the recent_changes tool take. */
export const ZChangesQuerySchema = z.object({
  since: z
    .string()
    .regex(/^(0|[1-9]\d{0,17})$/, NOT_A_CURSOR)
    .optional()
    .meta({ description: "The `cursor` of the previous answer: the changes after it. Without it, no changes and the current cursor: list once, then follow from there." }),
  limit: queryInt(1, CHANGES_LIMIT_MAX, CHANGES_LIMIT_DEFAULT).meta({
    description: "Most changes in one answer, 1 to 500.",
    type: "integer",
    minimum: 1,
    maximum: CHANGES_LIMIT_MAX,
    default: CHANGES_LIMIT_DEFAULT,
  }),
  wait: queryInt(0, CHANGES_WAIT_MAX, 0).meta({
    description: "Seconds to wait for a change when there is none after `since` (long poll), 0 to 30; answers as soon as one is committed.",
    type: "integer",
    minimum: 0,
    maximum: CHANGES_WAIT_MAX,
    default: 0,
  }),
});
export type TChangesQuery = z.infer<typeof ZChangesQuerySchema>;

const CHANGE_ACTIONS = ["created", "updated", "deleted", "restored", "purged"] as const;

const ZChangeSchema = z.object({
  entity: z.enum(["note", "tag"]),
  action: z.enum(CHANGE_ACTIONS).meta({
    description:
      "Notes: created, updated (a new version: a write, or a rename or deletion of one of its tags), deleted (moved to the trash), restored (back from the trash), purged (gone for good). Tags: created, updated (renamed), deleted.",
  }),
  id: z.guid().meta({ description: "The note's or tag's id." }),
  version: z.number().int().optional().meta({ description: "The note's version after the change (created, updated, restored): its ETag is \"v<version>\"." }),
  at: z.iso.datetime().meta({ description: "When the change was written." }),
});
export type TChange = z.infer<typeof ZChangeSchema>;

export const ZChangesResponseSchema = z.object({
  changes: z.array(ZChangeSchema).meta({ description: "In the order they were committed, oldest first." }),
  cursor: z.string().meta({ description: "Pass it as `since` to get what follows. The same as `since` when nothing changed." }),
  hasMore: z.boolean().meta({ description: "More changes follow at once: ask again with the new cursor." }),
});
export type TChangesResponse = z.infer<typeof ZChangesResponseSchema>;
