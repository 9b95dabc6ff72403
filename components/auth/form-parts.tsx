"use client";

import { useState, type ReactNode } from "react";
import { authErrorMessage, type AuthResult } from "@/lib/auth/auth-client";

/**
 * A form's error and pending state around one auth call. `run` resolves true
 * when the call succeeded; on a failure the form is usable again and shows why.
 */
export function useAuthCall(initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);
  async function run(call: () => Promise<AuthResult>): Promise<boolean> {
    setPending(true);
    setError(null);
    const { error: failure } = await call();
    if (!failure) return true;
    setPending(false);
    setError(authErrorMessage(failure));
    return false;
  }
  return { error, setError, pending, run };
}

/** The form's failure, announced as it appears; `children` add a way out (a link). */
export function FormError({ error, children }: { error: string | null; children?: ReactNode }) {
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {error}
      {children}
    </div>
  );
}

export function SubmitButton({ pending, label, pendingLabel, disabled = false }: { pending: boolean; label: string; pendingLabel: string; disabled?: boolean }) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={pending || disabled}>
      {pending ? pendingLabel : label}
    </button>
  );
}

export function EmailField({ defaultValue, autoFocus = true, hint }: { defaultValue?: string; autoFocus?: boolean; hint?: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor="email">Email</label>
      <input
        id="email"
        name="email"
        className="input"
        type="email"
        autoComplete="email"
        required
        autoFocus={autoFocus}
        defaultValue={defaultValue}
        aria-describedby={hint ? "email-hint" : undefined}
      />
      {hint ? (
        <span className="field-hint" id="email-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** A new password typed twice (the reset page and the verification page), as password managers expect it. */
export function NewPasswordFields({ label, confirmLabel, hint, minLength }: { label: string; confirmLabel: string; hint?: ReactNode; minLength?: number }) {
  return (
    <>
      <div className="field">
        <label htmlFor="password">{label}</label>
        <input
          id="password"
          name="password"
          className="input"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          autoFocus
          aria-describedby={hint ? "password-hint" : undefined}
        />
        {hint ? (
          <span className="field-hint" id="password-hint">
            {hint}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="confirm">{confirmLabel}</label>
        <input id="confirm" name="confirm" className="input" type="password" autoComplete="new-password" required />
      </div>
    </>
  );
}
