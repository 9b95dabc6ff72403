"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

const MIN_PASSWORD = 8;

export function SignUpForm({ disabledReason }: { disabledReason?: string }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(disabledReason ?? null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (password.length < MIN_PASSWORD) {
      setError(`Use at least ${MIN_PASSWORD} characters for your password.`);
      return;
    }
    setPending(true);
    setError(null);
    const address = email.trim();
    const { error: failure } = await authClient.signUp.email({
      email: address,
      password,
      name: address.split("@")[0] ?? "",
      // The verification link lands here; the email is the account's link to the identity service.
      callbackURL: "/sign-in?verified=1",
    });
    if (failure) {
      setPending(false);
      setError(authErrorMessage(failure));
      return;
    }
    router.push(`/check-email?email=${encodeURIComponent(address)}`);
  }

  return (
    <form onSubmit={submit} noValidate>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" className="input" type="email" autoComplete="email" required autoFocus value={email} onChange={(event) => setEmail(event.target.value)} />
        <span className="field-hint">Use the email of your agents’ identity account: it links the two.</span>
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          className="input"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD}
          aria-describedby="password-hint"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <span className="field-hint" id="password-hint">
          At least {MIN_PASSWORD} characters.
        </span>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending || Boolean(disabledReason) || !email || !password}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}
