"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { authClient } from "@/lib/auth/auth-client";

export function UserMenu({ email, onShowShortcuts }: { email: string; onShowShortcuts?: () => void }) {
  const [signingOut, setSigningOut] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);

  async function signOut() {
    setSigningOut(true);
    await authClient.signOut();
    // A full load drops every page cached for the signed-in person.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- the full load is the point
    window.location.assign("/");
  }

  return (
    <details
      className="user-menu"
      ref={menu}
      onKeyDown={(event) => {
        if (event.key === "Escape" && menu.current?.open) {
          menu.current.open = false;
          menu.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="avatar" aria-label={`Account menu for ${email}`}>
        {email.slice(0, 1)}
      </summary>
      <div className="menu-panel">
        <div className="menu-email">
          Signed in as
          <br />
          <strong>{email}</strong>
        </div>
        <Link className="menu-item" href="/account" onClick={() => menu.current && (menu.current.open = false)}>
          Account
        </Link>
        {onShowShortcuts ? (
          <button
            type="button"
            className="menu-item"
            onClick={() => {
              if (menu.current) menu.current.open = false;
              onShowShortcuts();
            }}
          >
            Keyboard shortcuts <kbd aria-hidden="true">?</kbd>
          </button>
        ) : null}
        <button type="button" className="menu-item" onClick={signOut} disabled={signingOut}>
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </details>
  );
}
