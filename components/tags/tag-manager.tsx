"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PlusIcon } from "@/components/ui/icons";
import { createTagAction, deleteTagAction, renameTagAction } from "@/lib/actions/tags";
import type { TagWithCount } from "@/lib/tags/queries";
import { TAG_NAME_MAX } from "@/lib/tags/schemas";

const notes = (count: number) => `${count} ${count === 1 ? "note" : "notes"}`;

function TagRow({ tag, onDelete }: { tag: TagWithCount; onDelete: (tag: TagWithCount) => void }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(tag.name);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function save() {
    const next = name.trim();
    if (next === tag.name) {
      setEditing(false);
      return;
    }
    startTransition(async () => {
      const result = await renameTagAction(tag.id, next);
      if (result.ok) {
        setEditing(false);
        setError(null);
        router.refresh();
      } else {
        setError(result.message);
      }
    });
  }

  if (editing) {
    return (
      <li>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <label className="sr-only" htmlFor={`rename-${tag.id}`}>
            New name for {tag.name}
          </label>
          <input
            id={`rename-${tag.id}`}
            className="input"
            value={name}
            maxLength={TAG_NAME_MAX}
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `rename-error-${tag.id}` : undefined}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                setEditing(false);
                setName(tag.name);
                setError(null);
              }
            }}
          />
          <button type="submit" className="btn btn-primary" disabled={pending || !name.trim()}>
            {pending ? "Saving…" : "Save"}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setEditing(false);
              setName(tag.name);
              setError(null);
            }}
          >
            Cancel
          </button>
        </form>
        {error ? (
          <span className="inline-error" id={`rename-error-${tag.id}`} role="alert">
            {error}
          </span>
        ) : null}
      </li>
    );
  }

  return (
    <li>
      <span className="tag-name">{tag.name}</span>
      <Link className="tag-count" href={`/notes?tag=${tag.id}`}>
        {notes(tag.noteCount)}
      </Link>
      <button type="button" className="btn btn-sm" onClick={() => setEditing(true)} aria-label={`Rename tag ${tag.name}`}>
        Rename
      </button>
      <button type="button" className="btn btn-sm btn-danger" onClick={() => onDelete(tag)} aria-label={`Delete tag ${tag.name}`}>
        Delete
      </button>
    </li>
  );
}

export function TagManager({ tags }: { tags: TagWithCount[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [toDelete, setToDelete] = useState<TagWithCount | null>(null);
  const [deleting, setDeleting] = useState(false);

  function create() {
    startTransition(async () => {
      const result = await createTagAction(name);
      if (result.ok) {
        setName("");
        setError(null);
        router.refresh();
      } else {
        setError(result.message);
      }
    });
  }

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    await deleteTagAction(toDelete.id);
    setDeleting(false);
    setToDelete(null);
    router.refresh();
  }

  return (
    <>
      <form
        className="tag-create"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) create();
        }}
      >
        <label className="sr-only" htmlFor="new-tag">
          New tag name
        </label>
        <input
          id="new-tag"
          className="input"
          placeholder="New tag name"
          value={name}
          maxLength={TAG_NAME_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "new-tag-error" : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={pending || !name.trim()}>
          <PlusIcon />
          Add tag
        </button>
      </form>
      {error ? (
        <p className="alert alert-error" id="new-tag-error" role="alert" style={{ marginBottom: 16 }}>
          {error}
        </p>
      ) : null}

      {tags.length === 0 ? (
        <EmptyState title="No tags yet">Tags group notes across searches. Add one here, or from a note’s “Add tags” button while you write.</EmptyState>
      ) : (
        <ul className="tag-rows card" aria-label="Tags">
          {tags.map((tag) => (
            <TagRow key={`${tag.id}:${tag.name}`} tag={tag} onDelete={setToDelete} />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title={`Delete the tag “${toDelete?.name ?? ""}”?`}
        confirmLabel="Delete tag"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      >
        <p>
          {toDelete && toDelete.noteCount > 0
            ? `It is removed from ${notes(toDelete.noteCount)}; the notes themselves stay.`
            : "No note carries it."}
        </p>
      </ConfirmDialog>
    </>
  );
}
