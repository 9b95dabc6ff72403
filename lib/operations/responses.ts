import { ZNoteModifiedResponseSchema } from "@/lib/notes/schemas";
import type { ApiResponse } from "@/lib/operations/operation";

// Responses more than one operation declares, in the same words.
export const BODY_TOO_LARGE = { body: null, description: "Request body over 1 MiB" } as const satisfies ApiResponse;
export const CONVERSION_QUEUE_FULL = "No conversion worker was free in time; retry after Retry-After seconds";
export const CONVERSION_OVER_BUDGET = "went over its time or memory budget (the error names the limit)";
export const KEY_REUSED = "The Idempotency-Key was already used with a different request body";
export const noteModified = (nothing: "written" | "deleted") =>
  ({
    body: ZNoteModifiedResponseSchema,
    description: `The note changed since the If-Match version; nothing was ${nothing}`,
    headers: ["ETag"],
  }) as const satisfies ApiResponse;
