import http from "node:http";
import https from "node:https";
import { z } from "zod";
import {
  NETWORK_ERROR,
  ZVerifyErrorSchema,
  ZVerifySuccessSchema,
  type VerifyResult,
} from "@/lib/identity/contract";

export type { VerifyResult } from "@/lib/identity/contract";

export type VerifyOptions = {
  /** Give up after this many milliseconds, connecting and reading the answer included. */
  timeoutMs?: number;
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

/** The longest verify answer read: the contract's is an email or an error text, well under it. */
const VERIFY_RESPONSE_MAX_BYTES = 64 * 1024;

/** An agent name some identity services add to a verify answer: recorded in note history, so kept short and on one line. */
const ZAgentNameSchema = z.string().trim().max(100).regex(/^[^\p{Cc}]*$/u).optional();

/** The identity service's hosted default is not reachable from here; local development runs its own. */
const DEFAULT_IDENTITY_API_URL = "http://127.0.0.1:4000";

// Every authenticated request makes a verify call, so connections to the
// identity service are kept open and reused: one pool per scheme for the
// process. maxSockets bounds the connections a burst of requests opens (the
// rest queue for one, within their deadline). An idle connection is closed
// after 4 s, before a server's usual 5 s keep-alive ends it under us.
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo", timeout: 4000 } as const;
const httpAgent = new http.Agent(AGENT_OPTIONS);
const httpsAgent = new https.Agent(AGENT_OPTIONS);

type VerifyTarget = { module: typeof http | typeof https; options: http.RequestOptions };

let lastTarget: { apiUrl: string; target: VerifyTarget } | undefined;

/** Where a verify call goes for `apiUrl`: parsed once, since a process talks to one identity service. */
function verifyTarget(apiUrl: string): VerifyTarget {
  if (lastTarget?.apiUrl === apiUrl) return lastTarget.target;
  const url = new URL("/api/verify", apiUrl);
  const secure = url.protocol === "https:";
  const target: VerifyTarget = {
    module: secure ? https : http,
    options: {
      protocol: url.protocol,
      // An IPv6 literal comes bracketed in a URL, bare in a request's options.
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || (secure ? 443 : 80),
      path: url.pathname + url.search,
      method: "POST",
      agent: secure ? httpsAgent : httpAgent,
    },
  };
  lastTarget = { apiUrl, target };
  return target;
}

type RawAnswer = { status: number; body: unknown };

/**
 * One POST over the pooled connections: resolves the status and the parsed
 * JSON body (undefined when it is not JSON or longer than
 * VERIFY_RESPONSE_MAX_BYTES), or null when no whole answer came within
 * `timeoutMs`. Never rejects.
 */
function postVerify(target: VerifyTarget, headers: http.OutgoingHttpHeaders, payload: string, timeoutMs: number): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    let settled = false;
    let current: http.ClientRequest | undefined;
    /** `drop`: the exchange did not end cleanly (no answer yet, or one too long), so its connection is not reused. */
    const finish = (answer: RawAnswer | null, drop = true) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (drop) current?.destroy();
      resolve(answer);
    };
    // One deadline for everything: waiting for a free connection, connecting, the answer's headers and body.
    const deadline = setTimeout(() => finish(null), timeoutMs);

    const send = (mayRetry: boolean) => {
      let req: http.ClientRequest;
      try {
        req = target.module.request({ ...target.options, headers });
      } catch {
        // Node refuses the request as built (a header it will not send): nothing to retry.
        finish(null);
        return;
      }
      current = req;
      let answered = false;
      req.on("error", () => {
        // A kept-alive connection the service closed while it sat idle fails
        // before any answer: verify changes nothing, so it is sent once more,
        // on a new connection. Any other failure is the service's outage.
        if (mayRetry && !answered && req.reusedSocket && !settled) send(false);
        else finish(null);
      });
      req.on("response", (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        if (Number(res.headers["content-length"] ?? 0) > VERIFY_RESPONSE_MAX_BYTES) {
          finish({ status, body: undefined });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > VERIFY_RESPONSE_MAX_BYTES) finish({ status, body: undefined });
          else chunks.push(chunk);
        });
        res.on("end", () => finish({ status, body: parseJson(Buffer.concat(chunks, size).toString("utf8")) }, false));
        // The connection lost mid-answer: the same as no answer.
        res.on("close", () => {
          if (!res.complete) finish(null);
        });
        res.on("error", () => finish(null));
      });
      req.end(payload);
    };
    send(true);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function verifyDetailed(
  partnerKey: string,
  sessionToken: string,
  apiUrl: string = DEFAULT_IDENTITY_API_URL,
  options: VerifyOptions = {},
): Promise<VerifyOutcome> {
  const payload = JSON.stringify({ sessionToken });
  const headers = {
    Authorization: `Bearer ${partnerKey}`,
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(payload),
  };
  let target: VerifyTarget;
  try {
    target = verifyTarget(apiUrl);
  } catch {
    // Not a URL: nothing can be reached there.
    return { ok: false, error: NETWORK_ERROR, status: null };
  }
  const answer = await postVerify(target, headers, payload, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  // Refused, reset, DNS failure or timeout: the caller cannot tell them apart
  // and the contract gives one text for all of them. Node's own error, which
  // may name the request's headers, is never passed on.
  if (!answer) return { ok: false, error: NETWORK_ERROR, status: null };

  const { status, body } = answer;
  if (status >= 200 && status < 300) {
    const success = ZVerifySuccessSchema.safeParse(body);
    if (success.success && success.data.email.length > 0) {
      const agent = ZAgentNameSchema.safeParse((body as { agent?: unknown }).agent);
      return { ok: true, email: success.data.email, ...(agent.success && agent.data ? { agent: agent.data } : {}) };
    }
    return { ok: false, error: "identity service returned no email", status };
  }
  const failure = ZVerifyErrorSchema.safeParse(body);
  const error = failure.success ? failure.data.error : `identity service answered ${status}`;
  return { ok: false, error, status };
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
