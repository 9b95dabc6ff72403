import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getCurrentUser } from "@/lib/auth/current-user";
import { MAIL_NOT_CONFIGURED, mailTransport } from "@/lib/mail/config";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await getCurrentUser()) redirect("/notes");
  // Without a way to send the verification email an account could never be used: say so up front.
  const disabledReason = mailTransport().kind === "none" ? `${MAIL_NOT_CONFIGURED}, so new accounts cannot be verified yet.` : undefined;
  return (
    <AuthCard
      title="Create your account"
      lead="Write in the browser; let your agents read and write the same notes through the API."
      footer={
        <>
          Already have an account? <Link href="/sign-in">Sign in</Link>
        </>
      }
    >
      <SignUpForm disabledReason={disabledReason} />
    </AuthCard>
  );
}
