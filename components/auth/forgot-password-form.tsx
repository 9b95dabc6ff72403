"use client";

import { useState } from "react";
import { EmailField, FormError, SubmitButton, useAuthCall } from "@/components/auth/form-parts";
import { authClient } from "@/lib/auth/auth-client";

export function ForgotPasswordForm({ initialEmail = "" }: { initialEmail?: string }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { error, setError, pending, run } = useAuthCall();

  if (sentTo) {
    return (
      <div className="alert alert-success" role="status">
        If {sentTo} has an account, a link to choose a new password is on its way. It works for one hour.
      </div>
    );
  }

  return (
    <form
      method="post"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
        if (!email) return setError("Enter your email address.");
        if (await run(() => authClient.requestPasswordReset({ email, redirectTo: "/reset-password" }))) setSentTo(email);
      }}
    >
      <FormError error={error} />
      <EmailField defaultValue={initialEmail} />
      <SubmitButton pending={pending} label="Send reset link" pendingLabel="Sending…" />
    </form>
  );
}
