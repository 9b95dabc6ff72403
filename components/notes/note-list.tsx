import Link from "next/link";
import { NoteListKeys } from "@/components/notes/note-list-keys";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ExcerptPart } from "@/lib/notes/excerpt";
import type { NoteRow } from "@/lib/notes/rows";

function Marked({ parts }: { parts: ExcerptPart[] }) {
  return parts.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>));
}

/** Which list the rows are in: the notes page's, or the pane beside an open note. Arrow keys move among the rows of one. */
export type RowKind = "note-row" | "pane-row";

/**
 * The notes as rows; with a search, matches in titles and text are marked;
 * notes an agent changed last carry an "Agent" badge. `current` is the note
 * open beside the list.
 */
export function NoteList({
  rows,
  now,
  label = "Notes",
  kind = "note-row",
  current,
  onOpen,
}: {
  rows: NoteRow[];
  now: number;
  label?: string;
  kind?: RowKind;
  current?: string;
  onOpen?: (id: string, event: React.KeyboardEvent<HTMLAnchorElement> | React.MouseEvent<HTMLAnchorElement>) => void;
}) {
  return (
    <NoteListKeys rows={`[data-${kind}]`}>
      <ul className="note-list" aria-label={label}>
        {rows.map((row) => (
          <li key={row.id}>
            <Link
              href={`/notes/${row.id}`}
              className="note-row"
              {...{ [`data-${kind}`]: "" }}
              aria-current={row.id === current ? "page" : undefined}
              onClick={onOpen && ((event) => onOpen(row.id, event))}
              onKeyDown={onOpen && ((event) => event.key === "Enter" && onOpen(row.id, event))}
            >
              <span className="note-row-top">
                <span className="note-title" dir="auto">
                  <Marked parts={row.title} />
                </span>
                <span className="note-time">
                  {row.agent ? (
                    <span className="author-badge agent" title="Last changed by one of your agents">
                      Agent<span className="sr-only"> changed it</span>
                    </span>
                  ) : null}{" "}
                  <RelativeTime iso={row.updatedAt} now={now} />
                </span>
              </span>
              {row.excerpt.length > 0 ? (
                <span className="note-excerpt" dir="auto">
                  <Marked parts={row.excerpt} />
                </span>
              ) : (
                <span className="note-excerpt empty">No text yet</span>
              )}
              {row.tags.length > 0 ? (
                <span className="note-tags">
                  {row.tags.map((tag) => (
                    <span key={tag.id} className="tag" title={tag.name}>
                      <span className="tag-text" dir="auto">
                        {tag.name}
                      </span>
                    </span>
                  ))}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </NoteListKeys>
  );
}
