import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { NoteList } from "@/components/notes/note-list";
import { NotesSearch } from "@/components/notes/notes-search";
import { Pagination } from "@/components/notes/pagination";
import { SortChoice } from "@/components/notes/sort-choice";
import { TagFilter } from "@/components/notes/tag-filter";
import { NewNoteButton } from "@/components/shell/new-note-button";
import { TrashedNotice } from "@/components/trash/trashed-notice";
import { EmptyState } from "@/components/ui/empty-state";
import { PinIcon } from "@/components/ui/icons";
import { requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { listNoteRowGroups } from "@/lib/notes/rows";
import { ZNotesPageQuerySchema } from "@/lib/notes/schemas";
import { listTagsWithNoteCounts } from "@/lib/tags/queries";
import { findTrashedNoteTitle } from "@/lib/trash/queries";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Notes" };

const PAGE_SIZE = 25;
/** Pinned notes shown above the rest, on the first page only. */
const PINNED_MAX = 100;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function summary(total: number, query: string, tagName: string | undefined): string {
  const notes = `${total} ${total === 1 ? "note" : "notes"}`;
  if (query) return `${total} ${total === 1 ? "note matches" : "notes match"} “${query}”${tagName ? ` in ${tagName}` : ""}`;
  if (tagName) return `${notes} tagged ${tagName}`;
  return notes;
}

export default async function NotesPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { q, tag: tagId, page, sort } = ZNotesPageQuerySchema.parse(params);
  // Set by the editor after a delete: the note it just moved to the trash.
  const trashed = z.guid().safeParse(params.trashed).data;
  const query = q ?? "";

  const returnTo = `/notes${query || tagId ? `?${new URLSearchParams({ ...(query ? { q: query } : {}), ...(tagId ? { tag: tagId } : {}) })}` : ""}`;
  const user = await requireUser(returnTo);
  const db = await getDb();
  const [{ pinned: pinnedRows, pinnedTotal, others: rows, othersTotal: restTotal }, tags, trashedTitle] = await Promise.all([
    // Later pages show only the rest, but count the pinned notes too.
    listNoteRowGroups(db, { userId: user.id, search: query || undefined, sort, tagId, pinnedLimit: page === 1 ? PINNED_MAX : 0, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    listTagsWithNoteCounts(db, { userId: user.id }),
    trashed ? findTrashedNoteTitle(db, { id: trashed, userId: user.id }) : null,
  ]);
  const total = pinnedTotal + restTotal;
  const activeTag = tags.find((tag) => tag.id === tagId);
  const filtered = Boolean(query || tagId);
  const now = Date.now();

  return (
    <div className="page">
      <PageHeader title="Notes">Yours and your agents’, {query && sort === "relevance" ? "best matches first" : "most recently updated first"}.</PageHeader>

      {trashed && trashedTitle !== null ? <TrashedNotice key={trashed} id={trashed} title={trashedTitle} /> : null}

      <div className="notes-toolbar">
        <NotesSearch initialQuery={query} />
        <TagFilter tags={tags} activeTagId={tagId} query={query} />
      </div>

      {pinnedRows.length + rows.length > 0 ? (
        <>
          <div className="result-summary-row">
            <p className="result-summary" aria-live="polite">
              {summary(total, query, activeTag?.name)}
            </p>
            {query ? <SortChoice query={query} tagId={tagId} sort={sort} /> : null}
          </div>
          {pinnedRows.length > 0 ? (
            <section className="note-group" aria-labelledby="pinned-notes-heading">
              <h2 id="pinned-notes-heading" className="note-group-title">
                <PinIcon size={14} />
                Pinned
              </h2>
              <NoteList rows={pinnedRows} now={now} label="Pinned notes" />
              {pinnedTotal > pinnedRows.length ? (
                <p className="result-summary">
                  The {pinnedRows.length} most recently updated of {pinnedTotal} pinned notes.
                </p>
              ) : null}
            </section>
          ) : null}
          {rows.length > 0 ? (
            <section className="note-group" aria-labelledby={pinnedRows.length > 0 ? "other-notes-heading" : undefined}>
              {pinnedRows.length > 0 ? (
                <h2 id="other-notes-heading" className="note-group-title">
                  Others
                </h2>
              ) : null}
              <NoteList rows={rows} now={now} />
            </section>
          ) : null}
          <Pagination page={page} pageSize={PAGE_SIZE} total={restTotal} query={query} tagId={tagId} sort={query ? sort : undefined} />
        </>
      ) : filtered && total > 0 ? (
        <EmptyState
          title="Nothing on this page"
          actions={
            <Link className="btn" href={`/notes?${new URLSearchParams({ ...(query ? { q: query } : {}), ...(tagId ? { tag: tagId } : {}) })}`}>
              Back to the first page
            </Link>
          }
        >
          There are fewer results than that.
        </EmptyState>
      ) : filtered ? (
        <EmptyState
          role="status"
          title={`No notes match${query ? ` “${query}”` : ""}${activeTag ? ` tagged ${activeTag.name}` : ""}`}
          actions={
            <Link className="btn" href="/notes">
              Clear filters
            </Link>
          }
        >
          Every word you type must appear in a note’s title or text. Try fewer or shorter words{activeTag ? ", or look in all tags" : ""}.
        </EmptyState>
      ) : (
        <EmptyState
          title="No notes yet"
          actions={
            <>
              <NewNoteButton label="Write a note" showShortcut={false} />
              <Link className="btn" href="/connect">
                Connect an agent
              </Link>
            </>
          }
        >
          Write your first note here, or let an agent write one for you through the API. Press <kbd>N</kbd> anytime for a new note.
        </EmptyState>
      )}
    </div>
  );
}
