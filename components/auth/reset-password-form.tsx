"use client";

import { useRouter } from "next/navigation";
import { FormError, NewPasswordFields, SubmitButton, useAuthCall } from "@/components/auth/form-parts";
import { authClient } from "@/lib/auth/auth-client";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const { error, setError, pending, run } = useAuthCall();

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
        if (await run(() => authClient.resetPassword({ newPassword: password, token }))) router.push("/sign-in?reset=1");
      }}
    >
      <FormError error={error} />
      <NewPasswordFields label="New password" confirmLabel="Repeat the new password" />
      <SubmitButton pending={pending} label="Set new password" pendingLabel="Saving…" />
    </form>
  );
}
