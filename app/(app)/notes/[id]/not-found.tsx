import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function NoteNotFound() {
  return (
    <div className="page page-narrow">
      <EmptyState
        titleAs="h1"
        title="This note does not exist"
        actions={
          <Link href="/notes" className="btn btn-primary">
            Back to your notes
          </Link>
        }
      >
        It may have been deleted (by you or one of your agents), or the link is wrong.
      </EmptyState>
    </div>
  );
}
