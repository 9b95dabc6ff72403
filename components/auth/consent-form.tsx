"use client";

import { FormError, useAuthCall } from "@/components/auth/form-parts";
import { authClient, signedOAuthQuery } from "@/lib/auth/auth-client";

/** Allow or Deny: either answer sends the person back to the client, which learns which it was. */
export function ConsentForm() {
  const { error, setError, pending, run } = useAuthCall();

  async function answer(accept: boolean) {
    const oauthQuery = signedOAuthQuery(window.location.search);
    if (!oauthQuery) {
      setError("This page has no request to answer. Start again from your MCP client.");
      return;
    }
    await run(() => authClient.oauthConsent({ accept, oauth_query: oauthQuery }));
  }

  return (
    <div>
      <FormError error={error} />
      <div className="row-between">
        <button type="button" className="btn btn-ghost" disabled={pending} onClick={() => answer(false)}>
          Deny
        </button>
        <button type="button" className="btn btn-primary" disabled={pending} onClick={() => answer(true)}>
          Allow
        </button>
      </div>
    </div>
  );
}
