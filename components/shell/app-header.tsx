"use client";

import { NavLinks } from "@/components/shell/nav-links";
import { NewNoteButton } from "@/components/shell/new-note-button";
import { UserMenu } from "@/components/shell/user-menu";
import { useShortcuts } from "@/components/shell/keyboard-shortcuts";
import { Brand } from "@/components/ui/brand";

export function AppHeader({ email }: { email: string }) {
  const { showHelp } = useShortcuts();
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Brand href="/notes" />
        <NavLinks />
        <div className="header-actions">
          <NewNoteButton compact />
          <UserMenu email={email} onShowShortcuts={showHelp} />
        </div>
      </div>
    </header>
  );
}
