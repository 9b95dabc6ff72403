import { z } from "zod";
import { storableText } from "@/lib/db/storable-text";

export const TAG_NAME_MAX = 50;

export const ZTagSchema = z.object({
  id: z.guid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
});
export type TTag = z.infer<typeof ZTagSchema>;

export const ZCreateTagSchema = z.object({
  name: storableText().trim().min(1).max(TAG_NAME_MAX).meta({ description: "Trimmed, 1 to 50 characters; unique per user, case-insensitively." }),
});
export type TCreateTag = z.infer<typeof ZCreateTagSchema>;

/**
 * A rename takes the same body, under the same rules, as a create.
 * @alias (of ZCreateTagSchema, on purpose: routes and tools name what they parse)
 */
export const ZRenameTagSchema = ZCreateTagSchema;

export const ZTagResponseSchema = z.object({ tag: ZTagSchema });
export const ZTagListResponseSchema = z.object({ tags: z.array(ZTagSchema) });
