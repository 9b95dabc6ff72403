"use client";

import { EmptyState } from "@/components/ui/empty-state";

export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const notesLink = (
    // eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load after an error starts the client afresh
    <a className="btn" href="/notes">
      Go to your notes
    </a>
  );
  return (
    <main className="auth-wrap" id="main">
      <EmptyState
        titleAs="h1"
        title="Something went wrong"
        style={{ maxWidth: 460 }}
        role="alert"
        actions={
          <>
            <button type="button" className="btn btn-primary" onClick={reset}>
              Try again
            </button>
            {notesLink}
          </>
        }
      >
        The page could not be loaded. Your saved notes are safe; try again in a moment.
      </EmptyState>
    </main>
  );
}
