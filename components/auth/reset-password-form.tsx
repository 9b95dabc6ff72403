"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  return (
    <form
      method="post"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const password = String(data.get("password") ?? "");
        if (password.length < 8) return setError("Use at least 8 characters for your password.");
        if (password !== data.get("confirm")) return setError("The two passwords are not the same.");
        setPending(true);
        setError(null);
        const { error: failure } = await authClient.resetPassword({ newPassword: password, token });
        if (failure) {
          setPending(false);
          setError(authErrorMessage(failure));
          return;
        }
        router.push("/sign-in?reset=1");
      }}
    >
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="password">New password</label>
        <input id="password" name="password" className="input" type="password" autoComplete="new-password" required autoFocus />
      </div>
      <div className="field">
        <label htmlFor="confirm">Repeat the new password</label>
        <input id="confirm" name="confirm" className="input" type="password" autoComplete="new-password" required />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}
