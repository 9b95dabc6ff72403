import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";
import { getCurrentUser } from "@/lib/auth/current-user";

// Every page in here calls requireUser() itself (with its own return path);
// the layout only draws the chrome for a signed-in person.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await getCurrentUser();
  if (!user) return <>{children}</>;
  return (
    <KeyboardShortcuts>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppHeader email={user.email} />
      <main id="main">{children}</main>
    </KeyboardShortcuts>
  );
}
