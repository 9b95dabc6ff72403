"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { deleteNoteForeverAction, emptyTrashAction, restoreNoteAction, type TrashActionResult } from "@/lib/actions/trash";

/** What the trash page shows of one deleted note. */
export type TrashItem = { id: string; title: string; deletedAt: string; expiresAt: string };

type Pending = { kind: "forever"; item: TrashItem } | { kind: "empty" } | null;

export function TrashList({ items, total, now }: { items: TrashItem[]; total: number; now: number }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Pending>(null);

  async function act(key: string, action: () => Promise<TrashActionResult>, then?: () => void) {
    setBusy(key);
    setError(null);
    const result = await action().catch(() => ({ ok: false, message: "The trash could not be changed: check your connection and try again." }) as const);
    setBusy(null);
    setConfirm(null);
    if (!result.ok) setError(result.message);
    else then?.();
    router.refresh();
  }

  return (
    <>
      <div className="row-between" style={{ marginBottom: 12 }}>
        <p className="result-summary" aria-live="polite">
          {total} {total === 1 ? "note" : "notes"} in the trash
        </p>
        <button type="button" className="btn btn-sm btn-danger" onClick={() => setConfirm({ kind: "empty" })} disabled={busy !== null}>
          Empty trash
        </button>
      </div>
      {error ? (
        <p className="alert alert-error" role="alert" style={{ marginBottom: 16 }}>
          {error}
        </p>
      ) : null}
      <ul className="tag-rows card" aria-label="Deleted notes">
        {items.map((item) => (
          <li key={item.id} data-trash-row="">
            <span className="tag-name">{item.title}</span>
            <span className="tag-count">
              <RelativeTime iso={item.deletedAt} now={now} prefix="Deleted " /> · <RelativeTime iso={item.expiresAt} now={now} prefix="gone " />
            </span>
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy !== null}
              aria-label={`Restore: ${item.title}`}
              onClick={() => void act(item.id, () => restoreNoteAction(item.id), () => router.push(`/notes/${item.id}`))}
            >
              {busy === item.id ? "Restoring…" : "Restore"}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-danger"
              disabled={busy !== null}
              aria-label={`Delete forever: ${item.title}`}
              onClick={() => setConfirm({ kind: "forever", item })}
            >
              Delete forever
            </button>
          </li>
        ))}
      </ul>

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === "forever" ? `Delete “${confirm.item.title}” forever?` : "Empty the trash?"}
        confirmLabel={confirm?.kind === "forever" ? "Delete forever" : "Empty trash"}
        busy={busy !== null}
        onConfirm={() => {
          if (confirm?.kind === "forever") void act(confirm.item.id, () => deleteNoteForeverAction(confirm.item.id));
          else if (confirm?.kind === "empty") void act("empty", () => emptyTrashAction());
        }}
        onCancel={() => setConfirm(null)}
      >
        <p>
          {confirm?.kind === "forever"
            ? "The note is gone for good, for you and your agents. This cannot be undone."
            : `${total} ${total === 1 ? "note is" : "notes are"} gone for good, for you and your agents. This cannot be undone.`}
        </p>
      </ConfirmDialog>
    </>
  );
}
