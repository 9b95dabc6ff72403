import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Reset your password" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ForgotPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  return (
    <AuthCard
      title="Reset your password"
      lead="Enter your account’s email and we will send you a link to choose a new password."
      footer={<Link href="/sign-in">Back to sign in</Link>}
    >
      <ForgotPasswordForm initialEmail={typeof params.email === "string" ? params.email : ""} />
    </AuthCard>
  );
}
