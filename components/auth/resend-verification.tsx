"use client";

import { useState } from "react";
import { FormError } from "@/components/auth/form-parts";
import { authClient, authErrorMessage } from "@/lib/auth/auth-client";

export function ResendVerification({ email }: { email: string }) {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="field">
      <FormError error={error} />
      {state === "sent" ? (
        <div className="alert alert-success" role="status">
          A new link is on its way.
        </div>
      ) : null}
      <button
        type="button"
        className="btn btn-block"
        disabled={state === "sending"}
        onClick={async () => {
          setState("sending");
          setError(null);
          const { error: failure } = await authClient.sendVerificationEmail({ email, callbackURL: "/sign-in?verified=1" });
          if (failure) {
            setError(authErrorMessage(failure));
            setState("idle");
          } else {
            setState("sent");
          }
        }}
      >
        {state === "sending" ? "Sending…" : "Send the link again"}
      </button>
    </div>
  );
}
