import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";
import { NewNoteOutlet, NewNoteProvider } from "@/components/shell/new-note";
import { getCurrentUser } from "@/lib/auth/current-user";

// Every page in here calls requireUser() itself (with its own return path);
// the layout only draws the chrome for a signed-in person.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await getCurrentUser();
  if (!user) return <>{children}</>;
  return (
    <NewNoteProvider>
      <KeyboardShortcuts>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <AppHeader email={user.email} />
        <main id="main">
          <NewNoteOutlet>{children}</NewNoteOutlet>
        </main>
      </KeyboardShortcuts>
    </NewNoteProvider>
  );
}
