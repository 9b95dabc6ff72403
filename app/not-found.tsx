import Link from "next/link";

export default function NotFound() {
  return (
    <main className="auth-wrap" id="main">
      <div className="empty-state" style={{ maxWidth: 460 }}>
        <h1 className="page-title">Page not found</h1>
        <p>There is nothing at this address.</p>
        <div className="actions">
          <Link href="/" className="btn btn-primary">
            Go to Notes
          </Link>
        </div>
      </div>
    </main>
  );
}
