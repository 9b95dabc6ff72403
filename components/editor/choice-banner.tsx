import type { ReactNode } from "react";

type Choice = { label: string; onClick: () => void };

/**
 * A banner that stops the person to decide between two versions of the note:
 * what happened (`children`), the two choices (the first is the suggested
 * one), and what each of them does.
 */
export function ChoiceBanner({
  titleId,
  title,
  className = "banner",
  primary,
  secondary,
  consequences,
  children,
}: {
  titleId: string;
  title: string;
  className?: string;
  primary: Choice;
  secondary: Choice;
  consequences: string;
  children: ReactNode;
}) {
  return (
    <section className={className} role="alert" aria-labelledby={titleId}>
      <p className="banner-title" id={titleId}>
        {title}
      </p>
      {children}
      <div className="actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={primary.onClick}>
          {primary.label}
        </button>
        <button type="button" className="btn btn-sm" onClick={secondary.onClick}>
          {secondary.label}
        </button>
      </div>
      <p>{consequences}</p>
    </section>
  );
}
