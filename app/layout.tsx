import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Notes", template: "%s · Notes" },
  description: "Notes for people and their agents: a block editor in the browser, the same notes over a REST API.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  // The on-screen keyboard shrinks the page rather than covering it, so the editor's toolbar stays above it (BlockNote's mobile setup).
  interactiveWidget: "resizes-content",
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f7f5" },
    { media: "(prefers-color-scheme: dark)", color: "#161719" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
