import Link from "next/link";

const CHOICES = [
  { sort: "relevance", label: "Best match" },
  { sort: "updated", label: "Newest" },
] as const;

/** Search results' order: best match first (the default in the browser) or newest first. */
export function SortChoice({ query, tagId, sort }: { query: string; tagId?: string; sort: "updated" | "relevance" }) {
  const href = (choice: "updated" | "relevance") => {
    const params = new URLSearchParams({ q: query });
    if (tagId) params.set("tag", tagId);
    if (choice === "updated") params.set("sort", choice);
    return `/notes?${params}`;
  };
  return (
    <nav className="sort-choice" aria-label="Order of results">
      {CHOICES.map((choice) => (
        <Link key={choice.sort} href={href(choice.sort)} className="sort-option" aria-current={choice.sort === sort ? "true" : undefined} replace>
          {choice.label}
        </Link>
      ))}
    </nav>
  );
}
