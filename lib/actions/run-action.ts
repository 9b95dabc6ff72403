import "server-only";
import { z } from "zod";
import { parseOperationInput, parseWith, type Caller, type OperationCore, type OperationInput } from "@/lib/operations/operation";
import { getCurrentUser } from "@/lib/auth/current-user";
import { personAuthor } from "@/lib/db/author";
import { getDb } from "@/lib/db/client";
import { AppError, isUnavailable, UNAVAILABLE_ACTION_MESSAGE, type ErrorCode } from "@/lib/errors";

const ZVersionSchema = z.number().int().positive().optional();
const ZSessionSchema = z.guid().optional();

/** What a server action hands an operation: its values, parsed as REST and MCP parse theirs. */
export type ActionCall = {
  ids?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The version the person saw, for an operation that takes a condition. */
  ifVersion?: number;
  /** The editor session a save comes from (the history joins saves within one, see personAuthor). */
  session?: string;
};

/**
 * Runs an operation for the person signed in, as a server action: the one
 * session read (an action re-checks who is signed in, as a route re-checks
 * its token), the operation's own parse, and its data, or the failure as the
 * action's `fail` words it (never thrown: the browser could not tell a thrown
 * error from a lost connection).
 */
export async function runAction<O, F>(
  op: OperationCore,
  call: ActionCall,
  words: {
    signedOut: F;
    /** `who`: the person the action ran for, for a failure's log line. */
    fail(err: unknown, who: { userId: string }): F;
    /** A call the operation refuses before running (a malformed id, say); `fail` when absent. */
    invalid?(err: unknown, who: { userId: string }): F;
  },
): Promise<{ ok: true; data: O; caller: Caller } | F> {
  if (!op.callers.includes("session")) throw new Error("A server action may only run an operation open to the browser's session");
  const user = await getCurrentUser();
  if (!user) return words.signedOut;
  let input: OperationInput;
  try {
    input = parseOperationInput(op, { ...call, condition: () => parseWith(ZVersionSchema, call.ifVersion, "INVALID_BODY") });
    parseWith(ZSessionSchema, call.session, "INVALID_BODY");
  } catch (err) {
    return (words.invalid ?? words.fail)(err, { userId: user.id });
  }
  try {
    const caller: Caller = { userId: user.id, email: user.email, db: await getDb(), author: personAuthor(user, call.session) };
    return { ok: true, data: (await op.run(caller, input)) as O, caller };
  } catch (err) {
    return words.fail(err, { userId: user.id });
  }
}

/**
 * A failure mapper from the words a page shows for each error code it
 * expects: a 503 says the service is unavailable, and anything else is thrown
 * on (the page's error boundary shows it).
 */
export function failureWords(words: Partial<Record<ErrorCode, string>>): (err: unknown) => { ok: false; message: string } {
  return (err) => {
    const message = err instanceof AppError ? words[err.code as ErrorCode] : undefined;
    if (message !== undefined) return { ok: false, message };
    if (isUnavailable(err)) return { ok: false, message: UNAVAILABLE_ACTION_MESSAGE };
    throw err;
  };
}
