"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { EmailField, FormError, SubmitButton, useAuthCall } from "@/components/auth/form-parts";
import { authClient, signedOAuthQuery } from "@/lib/auth/auth-client";

// Fields are read from the form on submit (not from state), so what was typed
// before the page finished loading still counts; the form is a POST so that a
// submit before then never puts the password in a URL.
export function SignInForm({ next, initialEmail = "" }: { next: string; initialEmail?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const { error, setError, pending, run } = useAuthCall();
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = String(data.get("email") ?? "").trim();
    const password = String(data.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email and password.");
      return;
    }
    setUnverifiedEmail(null);
    // On success the library loads callbackURL, which forwards a signed-in person to `next`.
    // It is also where a fresh verification link (sent if the email is unverified) lands.
    // Signing in for an MCP client's authorization: the provider answers with the consent page to go to.
    const oauthQuery = signedOAuthQuery(window.location.search);
    await run(async () => {
      const result = await authClient.signIn.email(
        oauthQuery ? { email, password, oauth_query: oauthQuery } : { email, password, callbackURL: `/sign-in?verified=1&next=${encodeURIComponent(next)}` },
      );
      if (result.error?.code === "EMAIL_NOT_VERIFIED") setUnverifiedEmail(email);
      return result;
    });
  }

  return (
    <form ref={form} method="post" onSubmit={submit} noValidate>
      <FormError error={error}>
        {unverifiedEmail ? (
          <>
            {" "}
            <Link href={`/check-email?email=${encodeURIComponent(unverifiedEmail)}`}>Check your inbox</Link>
          </>
        ) : null}
      </FormError>
      <EmailField defaultValue={initialEmail} autoFocus={!initialEmail} />
      <div className="field">
        <div className="row-between">
          <label htmlFor="password">Password</label>
          <Link
            href="/forgot-password"
            style={{ fontSize: 13 }}
            onClick={(event) => {
              const email = String(new FormData(form.current ?? undefined).get("email") ?? "").trim();
              if (email) event.currentTarget.href = `/forgot-password?email=${encodeURIComponent(email)}`;
            }}
          >
            Forgot password?
          </Link>
        </div>
        <input id="password" name="password" className="input" type="password" autoComplete="current-password" required autoFocus={Boolean(initialEmail)} />
      </div>
      <SubmitButton pending={pending} label="Sign in" pendingLabel="Signing in…" />
    </form>
  );
}
