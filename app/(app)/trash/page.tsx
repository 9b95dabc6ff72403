import type { Metadata } from "next";
import Link from "next/link";
import { TrashList } from "@/components/trash/trash-list";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { listTrash } from "@/lib/trash/queries";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Trash" };

/** The trash page shows the most recent deletions; the API pages through the rest. */
const SHOWN = 200;

export default async function TrashPage() {
  const user = await requireUser("/trash");
  const { notes, total } = await listTrash(await getDb(), { userId: user.id, limit: SHOWN, offset: 0 });
  const days = getEnv().TRASH_RETENTION_DAYS;
  return (
    <div className="page page-narrow">
      <PageHeader title="Trash">
        Notes you or your agents deleted stay here for {days} {days === 1 ? "day" : "days"}, then they are gone for good. Restore one and it comes back as it was.
      </PageHeader>
      {notes.length === 0 ? (
        <EmptyState
          title="The trash is empty"
          actions={
            <Link className="btn" href="/notes">
              Back to notes
            </Link>
          }
        >
          A deleted note waits here for {days} {days === 1 ? "day" : "days"} before it is gone for good.
        </EmptyState>
      ) : (
        <TrashList items={notes.map(({ id, title, deletedAt, expiresAt }) => ({ id, title, deletedAt, expiresAt }))} total={total} now={Date.now()} />
      )}
    </div>
  );
}
