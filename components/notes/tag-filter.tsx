import Link from "next/link";
import type { TagWithCount } from "@/lib/tags/queries";

/** Tag chips that filter the list; the search query is kept. */
export function TagFilter({ tags, activeTagId, query }: { tags: TagWithCount[]; activeTagId?: string; query: string }) {
  if (tags.length === 0) return null;
  const href = (tagId?: string) => {
    const params = new URLSearchParams();
    if (query) params.set("q", query);
    if (tagId) params.set("tag", tagId);
    const search = params.toString();
    return search ? `/notes?${search}` : "/notes";
  };
  return (
    <nav className="tag-filter" aria-label="Filter by tag">
      <Link href={href()} className="chip" aria-current={!activeTagId ? "true" : undefined} scroll={false}>
        All notes
      </Link>
      {tags.map((tag) => {
        const active = tag.id === activeTagId;
        return (
          <Link key={tag.id} href={href(active ? undefined : tag.id)} className="chip" aria-current={active ? "true" : undefined} scroll={false} title={tag.name}>
            <span className="tag-text" dir="auto">
              {tag.name}
            </span>
            <span className="chip-count" aria-label={`${tag.noteCount} notes`}>
              {tag.noteCount}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
