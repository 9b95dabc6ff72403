"use client";

import Link from "next/link";
import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

export function SignInForm({ next, initialEmail = "" }: { next: string; initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setUnverified(false);
    // On success the library loads callbackURL, which forwards a signed-in person to `next`.
    // It is also where a fresh verification link (sent if the email is unverified) lands.
    const { error: failure } = await authClient.signIn.email({
      email: email.trim(),
      password,
      callbackURL: `/sign-in?verified=1&next=${encodeURIComponent(next)}`,
    });
    if (failure) {
      setPending(false);
      setUnverified(failure.code === "EMAIL_NOT_VERIFIED");
      setError(authErrorMessage(failure));
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
          {unverified ? (
            <>
              {" "}
              <Link href={`/check-email?email=${encodeURIComponent(email.trim())}`}>Check your inbox</Link>
            </>
          ) : null}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          className="input"
          type="email"
          autoComplete="email"
          required
          autoFocus={!initialEmail}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="field">
        <div className="row-between">
          <label htmlFor="password">Password</label>
          <Link href={`/forgot-password${email ? `?email=${encodeURIComponent(email.trim())}` : ""}`} style={{ fontSize: 13 }}>
            Forgot password?
          </Link>
        </div>
        <input
          id="password"
          className="input"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={Boolean(initialEmail)}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending || !email || !password}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
