import type { ReactNode } from "react";

/** A page's title and the sentence under it that says what the page holds. */
export function PageHeader({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        <h1 className="page-title">{title}</h1>
        <p className="page-subtitle">{children}</p>
      </div>
    </div>
  );
}
