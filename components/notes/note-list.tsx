import Link from "next/link";
import { NoteListKeys } from "@/components/notes/note-list-keys";
import { RelativeTime } from "@/components/ui/relative-time";
import { noteExcerpt } from "@/lib/notes/excerpt";
import type { TNote } from "@/lib/notes/schemas";

export function NoteList({ notes, terms, now }: { notes: TNote[]; terms: string[]; now: number }) {
  return (
    <NoteListKeys>
      <ul className="note-list" aria-label="Notes">
        {notes.map((note) => {
          const excerpt = noteExcerpt(note.contentText, terms);
          return (
            <li key={note.id}>
              <Link href={`/notes/${note.id}`} className="note-row" data-note-row="">
                <span className="note-row-top">
                  <span className="note-title">{note.title}</span>
                  <span className="note-time">
                    <RelativeTime iso={note.updatedAt} now={now} />
                  </span>
                </span>
                {excerpt.length > 0 ? (
                  <span className="note-excerpt">
                    {excerpt.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
                  </span>
                ) : (
                  <span className="note-excerpt empty">No text yet</span>
                )}
                {note.tags.length > 0 ? (
                  <span className="note-tags">
                    {note.tags.map((tag) => (
                      <span key={tag.id} className="tag">
                        {tag.name}
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
