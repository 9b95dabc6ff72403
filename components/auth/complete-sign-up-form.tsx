"use client";

import { useActionState } from "react";
import { completeSignUpAction, type CompleteSignUpFormState } from "@/lib/auth/actions";

const initialState: CompleteSignUpFormState = { error: null };

export function CompleteSignUpForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState(completeSignUpAction, initialState);
  return (
    <form action={action} noValidate>
      {state.error ? (
        <div className="alert alert-error" role="alert">
          {state.error}
        </div>
      ) : null}
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers save the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" className="input" type="password" autoComplete="new-password" required minLength={8} autoFocus aria-describedby="password-hint" />
        <span className="field-hint" id="password-hint">
          At least 8 characters. The one you typed when signing up is fine.
        </span>
      </div>
      <div className="field">
        <label htmlFor="confirm">Repeat the password</label>
        <input id="confirm" name="confirm" className="input" type="password" autoComplete="new-password" required />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? "Verifying…" : "Verify email and sign in"}
      </button>
    </form>
  );
}
