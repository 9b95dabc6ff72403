import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { CompleteSignUpForm } from "@/components/auth/complete-sign-up-form";
import { readSignUpLink } from "@/lib/auth/complete-sign-up";
import { authSecret } from "@/lib/auth/secret";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Finish creating your account" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Where a verification link lands. Opening it changes nothing (mail scanners
// open links too): the person who holds the mailbox sets the password here,
// and that step verifies the email.
export default async function VerifyEmailPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const link = await readSignUpLink(await getDb(), { token, secret: authSecret(getEnv()) });

  if (link.kind === "verified") {
    return (
      <AuthCard title="Your email is verified" lead="This account is ready." footer={<Link href="/forgot-password">Forgot your password?</Link>}>
        <Link className="btn btn-primary btn-block" href={`/sign-in?email=${encodeURIComponent(link.email)}`}>
          Sign in
        </Link>
      </AuthCard>
    );
  }
  if (link.kind === "invalid") {
    return (
      <AuthCard
        title="This link does not work"
        lead="Verification links work for one hour, and only the newest sign-up for an email has a working link."
        footer={<Link href="/sign-in">Back to sign in</Link>}
      >
        <Link className="btn btn-primary btn-block" href="/sign-up">
          Sign up again
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Choose your password"
      lead={
        <>
          Finish creating the account for <strong>{link.email}</strong>. Only the password you choose here will sign in to it.
        </>
      }
    >
      <CompleteSignUpForm token={token} email={link.email} />
    </AuthCard>
  );
}
