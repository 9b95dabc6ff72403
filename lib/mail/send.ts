import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { mailTransport } from "@/lib/mail/config";
import { writeOutboxMessage } from "@/lib/mail/outbox";
import type { MailContent } from "@/lib/mail/templates";

let smtp: { url: string; transporter: Transporter } | undefined;

function smtpTransporter(url: string): Transporter {
  if (smtp?.url !== url) smtp = { url, transporter: nodemailer.createTransport(url) };
  return smtp.transporter;
}

/** Sends an account email through SMTP, or into the local outbox in development and tests. */
export async function sendMail(to: string, content: MailContent): Promise<void> {
  const env = getEnv();
  const transport = mailTransport(env);
  if (transport.kind === "none") {
    log.error("mail.not_configured", { hint: "set SMTP_URL" });
    throw new AppError("MAIL_NOT_CONFIGURED");
  }
  if (transport.kind === "outbox") {
    await writeOutboxMessage(transport.dir, { to, subject: content.subject, text: content.text, html: content.html, links: content.links });
    log.info("mail.outbox", { subject: content.subject });
    return;
  }
  try {
    await smtpTransporter(transport.url).sendMail({ from: env.MAIL_FROM, to, subject: content.subject, text: content.text, html: content.html });
    log.info("mail.sent", { subject: content.subject });
  } catch (err) {
    // The SMTP URL may hold a password: log the failure, never the settings.
    log.error("mail.failed", { subject: content.subject, cause: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
