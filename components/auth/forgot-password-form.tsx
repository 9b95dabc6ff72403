"use client";

import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

export function ForgotPasswordForm({ initialEmail = "" }: { initialEmail?: string }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

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
        setPending(true);
        setError(null);
        const { error: failure } = await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" });
        setPending(false);
        if (failure) setError(authErrorMessage(failure));
        else setSentTo(email);
      }}
    >
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" className="input" type="email" autoComplete="email" required autoFocus defaultValue={initialEmail} />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? "Sending…" : "Send reset link"}
      </button>
    </form>
  );
}
