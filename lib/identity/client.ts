import { z } from "zod";
import {
  NETWORK_ERROR,
  ZVerifyErrorSchema,
  ZVerifySuccessSchema,
  type VerifyResult,
} from "@/lib/identity/contract";

export type { VerifyResult } from "@/lib/identity/contract";

export type VerifyOptions = {
  /** Abort the call after this many milliseconds. */
  timeoutMs?: number;
  /** Injected in tests; defaults to the global fetch (undici, keep-alive by default). */
  fetch?: typeof fetch;
};

/**
 * A verify result with what the caller needs to tell a bad token apart from a
 * partner-side fault: the HTTP status when the service answered.
 */
export type VerifyOutcome =
  /** `agent`: the agent's name, when an identity service sends one beside the email (the contract's does not). */
  | { ok: true; email: string; agent?: string }
  | { ok: false; error: string; status: number | null };

const DEFAULT_TIMEOUT_MS = 5000;

/** An agent name some identity services add to a verify answer: recorded in note history, so kept short and on one line. */
const ZAgentNameSchema = z.string().trim().max(100).regex(/^[^\p{Cc}]*$/u).optional();

/** The identity service's hosted default is not reachable from here; local development runs its own. */
const DEFAULT_IDENTITY_API_URL = "http://127.0.0.1:4000";

export async function verifyDetailed(
  partnerKey: string,
  sessionToken: string,
  apiUrl: string = DEFAULT_IDENTITY_API_URL,
  options: VerifyOptions = {},
): Promise<VerifyOutcome> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  let body: unknown;
  try {
    response = await doFetch(new URL("/api/verify", apiUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${partnerKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ sessionToken }),
      cache: "no-store",
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    body = await response.json().catch(() => undefined);
  } catch {
    // Refused, reset, DNS failure or timeout: the caller cannot tell them apart
    // and the contract gives one text for all of them.
    return { ok: false, error: NETWORK_ERROR, status: null };
  }

  if (response.ok) {
    const success = ZVerifySuccessSchema.safeParse(body);
    if (success.success && success.data.email.length > 0) {
      const agent = ZAgentNameSchema.safeParse((body as { agent?: unknown }).agent);
      return { ok: true, email: success.data.email, ...(agent.success && agent.data ? { agent: agent.data } : {}) };
    }
    return { ok: false, error: "identity service returned no email", status: response.status };
  }
  const failure = ZVerifyErrorSchema.safeParse(body);
  const error = failure.success ? failure.data.error : `identity service answered ${response.status}`;
  return { ok: false, error, status: response.status };
}

/**
 * The identity service's client library call: resolves `{ ok: true, email }` or
 * `{ ok: false, error }` with the service's own error text; never throws.
 */
export async function verify(
  partnerKey: string,
  sessionToken: string,
  apiUrl?: string,
  options?: VerifyOptions,
): Promise<VerifyResult> {
  const outcome = await verifyDetailed(partnerKey, sessionToken, apiUrl, options);
  return outcome.ok ? { ok: true, email: outcome.email } : { ok: false, error: outcome.error };
}
