import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Brand } from "@/components/ui/brand";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { isOutboxEnabled, mailTransport, outboxDir } from "@/lib/mail/config";
import { listOutboxMessages } from "@/lib/mail/outbox";

export const metadata: Metadata = { title: "Outbox (development)", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * Development only: account emails that were "sent" to the local outbox,
 * with their links. Absent (404) from production builds unless OUTBOX_ENABLED=1.
 */
export default async function OutboxPage() {
  if (!isOutboxEnabled()) notFound();
  const transport = mailTransport();
  const messages = await listOutboxMessages(outboxDir());
  const now = Date.now();
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <Brand />
          <h1 className="page-title" style={{ marginTop: 16 }}>
            Outbox
          </h1>
          <p className="page-subtitle">
            {transport.kind === "smtp"
              ? "SMTP_URL is set, so new mail goes out by SMTP; older messages below came from the local outbox."
              : "This server sends no email. Account emails land here instead, newest first."}
          </p>
        </div>
      </div>
      {messages.length === 0 ? (
        <EmptyState title="No messages yet">Sign up or ask for a password reset, then reload this page.</EmptyState>
      ) : (
        <ul className="mail-list">
          {messages.map((message) => (
            <li key={message.id} className="card mail" data-testid="outbox-message">
              <div className="mail-head">
                <span>
                  To <strong>{message.to}</strong>
                </span>
                <RelativeTime iso={message.sentAt} now={now} />
              </div>
              <div className="mail-subject">{message.subject}</div>
              <pre>{message.text}</pre>
              <div>
                {message.links.map((link) => (
                  <a key={link.url} className="btn btn-primary btn-sm" href={link.url}>
                    {link.label}
                  </a>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
