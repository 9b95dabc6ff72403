"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

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
  const [error, setError] = useState<string | null>(disabledReason ?? null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!email) return setError("Enter your email address.");
    setPending(true);
    setError(null);
    const { error: failure } = await authClient.signUp.email({ email, password: placeholderPassword(), name: email.split("@")[0] ?? "" });
    if (failure) {
      setPending(false);
      setError(authErrorMessage(failure));
      return;
    }
    router.push(`/check-email?email=${encodeURIComponent(email)}`);
  }

  return (
    <form method="post" onSubmit={submit} noValidate>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" className="input" type="email" autoComplete="email" required autoFocus aria-describedby="email-hint" />
        <span className="field-hint" id="email-hint">
          Use the email of your agents’ identity account: it links the two. We will send a link there; you choose your password when you open it.
        </span>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending || Boolean(disabledReason)}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}
