import path from "node:path";
import { getEnv, type Env } from "@/lib/env";
import { errorText } from "@/lib/errors";

/** Shown (and logged) when an account email is needed but nothing can deliver it. */
export const MAIL_NOT_CONFIGURED = errorText("MAIL_NOT_CONFIGURED");

export type MailTransport =
  | { kind: "smtp"; url: string }
  /** JSON files in a directory, read by the /dev/outbox page. */
  | { kind: "outbox"; dir: string }
  | { kind: "none" };

/**
 * The local outbox exists in development and tests only: in a production
 * build it needs OUTBOX_ENABLED=1, since anyone who can open /dev/outbox can
 * read every account's sign-in links.
 */
export function isOutboxEnabled(env: Env = getEnv()): boolean {
  return env.NODE_ENV !== "production" || env.OUTBOX_ENABLED;
}

export function outboxDir(env: Env = getEnv()): string {
  // Resolved at run time against the working directory; not a file the build should trace.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.OUTBOX_DIR ?? path.join(".data", "outbox"));
}

/** SMTP when SMTP_URL is set; otherwise the local outbox where it is allowed; otherwise nothing. */
export function mailTransport(env: Env = getEnv()): MailTransport {
  if (env.SMTP_URL) return { kind: "smtp", url: env.SMTP_URL };
  if (isOutboxEnabled(env)) return { kind: "outbox", dir: outboxDir(env) };
  return { kind: "none" };
}
