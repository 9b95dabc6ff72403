import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getCurrentUser, safeReturnPath } from "@/lib/auth/current-user";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Codes a verification link can come back with.
const LINK_ERRORS: Record<string, string> = {
  TOKEN_EXPIRED: "That verification link has expired. Sign in and we will send you a new one.",
  INVALID_TOKEN: "That verification link is not valid. Sign in and we will send you a new one.",
  USER_NOT_FOUND: "That verification link belongs to an account that no longer exists.",
};

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeReturnPath(params.next);
  if (await getCurrentUser()) redirect(next);
  const error = typeof params.error === "string" ? (LINK_ERRORS[params.error] ?? "That link did not work. Sign in to get a new one.") : null;
  const notice = error
    ? null
    : params.verified
      ? "Your email is verified. Sign in to start writing."
      : params.reset
        ? "Your password has been changed. Sign in with the new one."
        : null;
  return (
    <AuthCard
      title="Sign in"
      lead="Welcome back. Your notes and your agents’ notes are waiting."
      footer={
        <>
          New here? <Link href="/sign-up">Create an account</Link>
        </>
      }
    >
      {notice ? (
        <div className="alert alert-success" role="status">
          {notice}
        </div>
      ) : null}
      {error ? (
        <div className="alert alert-warning" role="alert">
          {error}
        </div>
      ) : null}
      <SignInForm next={next} initialEmail={typeof params.email === "string" ? params.email : ""} />
    </AuthCard>
  );
}
