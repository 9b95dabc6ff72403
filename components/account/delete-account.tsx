"use client";

import { useState } from "react";
import { deleteAccountAction } from "@/lib/auth/account-actions";
import type { AccountContents } from "@/lib/users/queries";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Deleting the account: what goes with it, in numbers, and the email typed to confirm. */
export function DeleteAccount({ contents }: { contents: AccountContents }) {
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = confirmation.trim().toLowerCase() === contents.email.toLowerCase();

  async function erase() {
    setBusy(true);
    setError(null);
    const result = await deleteAccountAction(confirmation).catch(() => ({ ok: false, message: "Your account could not be deleted: check your connection and try again." }) as const);
    if (result.ok) {
      // A full load: every page cached for the account goes, and the sign-in page follows.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- the full load is the point
      window.location.assign("/");
      return;
    }
    setBusy(false);
    setError(result.message);
  }

  return (
    <section className="card card-body" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete your account</h2>
      <p>Everything below is removed at once, for you and for your agents, and cannot be brought back:</p>
      <ul>
        <li>{count(contents.notes, "note", "notes")}</li>
        <li>{count(contents.trashed, "note in the trash", "notes in the trash")}</li>
        <li>{count(contents.tags, "tag", "tags")}</li>
        <li>your password and every browser session; your agents’ tokens stop working here</li>
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) void erase();
        }}
      >
        <div className="field">
          <label className="label" htmlFor="confirm-email">
            Type <strong>{contents.email}</strong> to confirm
          </label>
          <input
            id="confirm-email"
            className="input"
            autoComplete="off"
            value={confirmation}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "delete-account-error" : undefined}
            onChange={(event) => setConfirmation(event.target.value)}
          />
        </div>
        {error ? (
          <p className="alert alert-error" id="delete-account-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn-danger-solid btn-wrap" disabled={!matches || busy}>
          {busy ? "Deleting…" : "Delete my account and everything in it"}
        </button>
      </form>
    </section>
  );
}
