import { z } from "zod";

/**
 * Wire shapes of the service's own routes beyond the partner verify
 * contract (which lives in lib/identity/contract.ts): token minting, used
 * only by the agent tool, and the generic route errors.
 */

export const TOKENS_PATH = "/api/tokens";
export const VERIFY_PATH = "/api/verify";
export const HEALTH_PATH = "/health";

/** POST /api/tokens 200 body. `expiresAt` is an ISO 8601 timestamp. */
export const ZTokenResponseSchema = z.object({ sessionToken: z.string(), expiresAt: z.string() });
export type TTokenResponse = z.infer<typeof ZTokenResponseSchema>;

/** POST /api/tokens failures, all 401. */
export const TOKEN_ERRORS = {
  missingOrInvalidApiKey: "Missing or invalid API key",
  missingApiKey: "Missing API key",
  invalidApiKey: "Invalid API key",
  revokedApiKey: "API key has been revoked",
} as const;

export const ROUTE_ERRORS = {
  notFound: "Not found",
  methodNotAllowed: "Method not allowed",
  bodyTooLarge: "Request body too large",
} as const;
