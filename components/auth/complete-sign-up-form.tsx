"use client";

import { useActionState } from "react";
import { FormError, NewPasswordFields, SubmitButton } from "@/components/auth/form-parts";
import { completeSignUpAction, type CompleteSignUpFormState } from "@/lib/auth/actions";

const initialState: CompleteSignUpFormState = { error: null };

export function CompleteSignUpForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState(completeSignUpAction, initialState);
  return (
    <form action={action} noValidate>
      <FormError error={state.error} />
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers save the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields label="Password" confirmLabel="Repeat the password" hint="At least 8 characters. The one you typed when signing up is fine." minLength={8} />
      <SubmitButton pending={pending} label="Verify email and sign in" pendingLabel="Verifying…" />
    </form>
  );
}
