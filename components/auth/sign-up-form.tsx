"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

const MIN_PASSWORD = 8;

// Fields are read from the form on submit, so what was typed before the page finished loading still counts.
export function SignUpForm({ disabledReason }: { disabledReason?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(disabledReason ?? null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = String(data.get("email") ?? "").trim();
    const password = String(data.get("password") ?? "");
    if (!email) return setError("Enter your email address.");
    if (password.length < MIN_PASSWORD) return setError(`Use at least ${MIN_PASSWORD} characters for your password.`);
    setPending(true);
    setError(null);
    const { error: failure } = await authClient.signUp.email({
      email,
      password,
      name: email.split("@")[0] ?? "",
      // The verification link lands here; the email is the account's link to the identity service.
      callbackURL: "/sign-in?verified=1",
    });
    if (failure) {
      setPending(false);
      setError(authErrorMessage(failure));
      return;
    }
    router.push(`/check-email?email=${encodeURIComponent(email)}`);
  }

  return (
    // POST: a submit before the page has loaded must never put the password in a URL.
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
          Use the email of your agents’ identity account: it links the two.
        </span>
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" className="input" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} aria-describedby="password-hint" />
        <span className="field-hint" id="password-hint">
          At least {MIN_PASSWORD} characters.
        </span>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending || Boolean(disabledReason)}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}
