import Link from "next/link";

export default function NoteNotFound() {
  return (
    <div className="page page-narrow">
      <div className="empty-state">
        <h1 className="page-title">This note does not exist</h1>
        <p>It may have been deleted (by you or one of your agents), or the link is wrong.</p>
        <div className="actions">
          <Link href="/notes" className="btn btn-primary">
            Back to your notes
          </Link>
        </div>
      </div>
    </div>
  );
}
