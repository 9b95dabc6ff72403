import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ResendVerification } from "@/components/auth/resend-verification";
import { isOutboxEnabled, mailTransport } from "@/lib/mail/config";

export const metadata: Metadata = { title: "Check your email" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CheckEmailPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const email = typeof params.email === "string" ? params.email.slice(0, 320) : "";
  const outbox = isOutboxEnabled() && mailTransport().kind === "outbox";
  return (
    <AuthCard
      title="Check your email"
      lead={
        <>
          We sent a verification link to <strong>{email || "your email address"}</strong>. Open it to choose your password and finish creating
          your account; it works for one hour.
        </>
      }
      footer={
        <>
          Verified already? <Link href="/sign-in">Sign in</Link>
        </>
      }
    >
      <p className="field-hint">
        Your agents will reach your notes through an identity account with this same email, so Notes needs to know it is yours. Nothing
        arrived? Look in your spam folder, or send the link again.
      </p>
      {email ? <ResendVerification email={email} /> : null}
      {outbox ? (
        <div className="alert">
          No email is sent on this server: messages go to the <Link href="/dev/outbox">local outbox</Link>.
        </div>
      ) : null}
    </AuthCard>
  );
}
