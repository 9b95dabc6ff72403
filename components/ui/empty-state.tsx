import type { CSSProperties, ReactNode } from "react";

/**
 * What a page shows instead of its content (no notes, nothing found, an
 * error): a heading, a sentence on why, and where to go from here. A page of
 * its own (`titleAs="h1"`) has it as its title.
 */
export function EmptyState({
  title,
  titleAs = "h2",
  role,
  style,
  children,
  actions,
}: {
  title: ReactNode;
  titleAs?: "h1" | "h2";
  role?: "alert" | "status";
  style?: CSSProperties;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const Title = titleAs;
  return (
    <div className="empty-state" style={style} role={role}>
      <Title className={titleAs === "h1" ? "page-title" : undefined}>{title}</Title>
      <p>{children}</p>
      {actions ? <div className="actions">{actions}</div> : null}
    </div>
  );
}
