import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

export const metadata: Metadata = { title: "Choose a new password" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  if (!token || params.error) {
    return (
      <AuthCard title="This link does not work" lead="Password reset links work once, for one hour." footer={<Link href="/sign-in">Back to sign in</Link>}>
        <Link className="btn btn-primary btn-block" href="/forgot-password">
          Send a new link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" lead="You will be signed out everywhere else.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
