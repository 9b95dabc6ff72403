"use client";

export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="auth-wrap" id="main">
      <div className="empty-state" style={{ maxWidth: 460 }} role="alert">
        <h1 className="page-title">Something went wrong</h1>
        <p>The page could not be loaded. Your saved notes are safe; try again in a moment.</p>
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={reset}>
            Try again
          </button>
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load after an error starts the client afresh */}
          <a className="btn" href="/notes">
            Go to your notes
          </a>
        </div>
      </div>
    </main>
  );
}
