import Link from "next/link";
import { NoteListKeys } from "@/components/notes/note-list-keys";
import { RelativeTime } from "@/components/ui/relative-time";
import { previewText } from "@/lib/editor/content-text";
import { noteExcerpt, type ExcerptPart } from "@/lib/notes/excerpt";
import type { TNote } from "@/lib/notes/schemas";
import type { NoteHighlight } from "@/lib/notes/snippet";

function Marked({ parts }: { parts: ExcerptPart[] }) {
  return parts.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>));
}

/**
 * The notes as rows; with a search's highlights, matches in titles and text
 * are marked; notes an agent changed last carry an "Agent" badge.
 */
export function NoteList({
  notes,
  highlights,
  agentChanged,
  now,
  label = "Notes",
}: {
  notes: TNote[];
  highlights?: NoteHighlight[];
  agentChanged?: ReadonlySet<string>;
  now: number;
  label?: string;
}) {
  return (
    <NoteListKeys>
      <ul className="note-list" aria-label={label}>
        {notes.map((note, index) => {
          const highlight = highlights?.[index];
          const excerpt = highlight ? highlight.snippet : noteExcerpt(previewText(note.content, note.contentText));
          return (
            <li key={note.id}>
              <Link href={`/notes/${note.id}`} className="note-row" data-note-row="">
                <span className="note-row-top">
                  <span className="note-title" dir="auto">{highlight ? <Marked parts={highlight.title} /> : note.title}</span>
                  <span className="note-time">
                    {agentChanged?.has(note.id) ? (
                      <span className="author-badge agent" title="Last changed by one of your agents">
                        Agent<span className="sr-only"> changed it</span>
                      </span>
                    ) : null}{" "}
                    <RelativeTime iso={note.updatedAt} now={now} />
                  </span>
                </span>
                {excerpt.length > 0 ? (
                  <span className="note-excerpt" dir="auto">
                    <Marked parts={excerpt} />
                  </span>
                ) : (
                  <span className="note-excerpt empty">No text yet</span>
                )}
                {note.tags.length > 0 ? (
                  <span className="note-tags">
                    {note.tags.map((tag) => (
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
          );
        })}
      </ul>
    </NoteListKeys>
  );
}
