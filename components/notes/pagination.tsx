import Link from "next/link";

export function Pagination({
  page,
  pageSize,
  total,
  query,
  tagId,
  sort,
}: {
  page: number;
  pageSize: number;
  total: number;
  query: string;
  tagId?: string;
  sort?: "updated" | "relevance";
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (target: number) => {
    const params = new URLSearchParams();
    if (query) params.set("q", query);
    if (tagId) params.set("tag", tagId);
    if (sort === "updated") params.set("sort", sort);
    if (target > 1) params.set("page", String(target));
    const search = params.toString();
    return search ? `/notes?${search}` : "/notes";
  };
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? (
        <Link className="btn" href={href(page - 1)} rel="prev">
          ← Newer
        </Link>
      ) : (
        <span className="btn" aria-disabled="true">
          ← Newer
        </span>
      )}
      <span aria-live="polite">
        {first}–{last} of {total} · page {page} of {pages}
      </span>
      {page < pages ? (
        <Link className="btn" href={href(page + 1)} rel="next">
          Older →
        </Link>
      ) : (
        <span className="btn" aria-disabled="true">
          Older →
        </span>
      )}
    </nav>
  );
}
