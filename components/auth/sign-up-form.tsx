"use client";

import { useRouter } from "next/navigation";
import { EmailField, FormError, SubmitButton, useAuthCall } from "@/components/auth/form-parts";
import { authClient } from "@/lib/auth/auth-client";

/**
 * A password nobody knows, for the pending sign-up: the account's real
 * password is chosen on the verification link's page, by whoever holds the
 * mailbox, and replaces it.
 */
function placeholderPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The email is read from the form on submit, so what was typed before the page finished loading still counts.
export function SignUpForm({ disabledReason }: { disabledReason?: string }) {
  const router = useRouter();
  const { error, setError, pending, run } = useAuthCall(disabledReason ?? null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!email) return setError("Enter your email address.");
    if (await run(() => authClient.signUp.email({ email, password: placeholderPassword(), name: email.split("@")[0] ?? "" }))) {
      router.push(`/check-email?email=${encodeURIComponent(email)}`);
    }
  }

  return (
    <form method="post" onSubmit={submit} noValidate>
      <FormError error={error} />
      <EmailField hint="Use the email of your agents’ identity account: it links the two. We will send a link there; you choose your password when you open it." />
      <SubmitButton pending={pending} label="Create account" pendingLabel="Creating your account…" disabled={Boolean(disabledReason)} />
    </form>
  );
}
