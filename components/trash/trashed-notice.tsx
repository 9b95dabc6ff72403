"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { restoreNoteAction } from "@/lib/actions/trash";

/** After a delete in the browser: where the note went, and a way back. */
export function TrashedNotice({ id, title }: { id: string; title: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function undo() {
    setBusy(true);
    const result = await restoreNoteAction(id).catch(() => ({ ok: false, message: "The note could not be restored: check your connection and try again." }) as const);
    if (result.ok) {
      router.push(`/notes/${id}`);
      return;
    }
    setBusy(false);
    setError(result.message);
  }

  return (
    <div className="alert alert-success row-between" role="status" style={{ marginBottom: 16 }}>
      <span>
        “{title}” moved to the trash.{error ? ` ${error}` : ""}
      </span>
      <span style={{ display: "flex", gap: 8 }}>
        <button type="button" className="btn btn-sm" onClick={() => void undo()} disabled={busy}>
          {busy ? "Restoring…" : "Undo"}
        </button>
        <Link className="btn btn-sm btn-ghost" href="/trash">
          Open trash
        </Link>
      </span>
    </div>
  );
}
