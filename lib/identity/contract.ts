import { z } from "zod";

/**
 * Wire shapes of the identity service's partner verify contract
 * (POST {identity_api_url}/api/verify). Shared by the notes service's client
 * and the self-hostable identity service so the two cannot disagree.
 */
export const ZVerifyRequestSchema = z.object({ sessionToken: z.string() });

export const ZVerifySuccessSchema = z.object({ email: z.string() });
export const ZVerifyErrorSchema = z.object({ error: z.string() });

/** Result of `verify()`: never thrown, always resolved. */
export type VerifyResult = { ok: true; email: string } | { ok: false; error: string };

/** The exact `error` texts of the verify endpoint, per status. */
export const VERIFY_ERRORS = {
  invalidJson: "Invalid JSON body",
  invalidSessionToken: "Missing or invalid sessionToken",
  missingOrInvalidPartnerKey: "Missing or invalid partner key",
  missingPartnerKey: "Missing partner key",
  invalidPartnerKey: "Invalid partner key",
  invalidOrExpiredToken: "Invalid or expired session token",
  revokedPartnerKey: "Partner key has been revoked",
} as const;

/** What the client library resolves with when the service cannot be reached. */
export const NETWORK_ERROR = "Network error: cannot reach API";

/** Session tokens live five minutes. */
export const SESSION_TOKEN_TTL_SECONDS = 300;
