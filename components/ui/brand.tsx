import Link from "next/link";

export function Brand({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="brand" aria-label="Notes home">
      {/* The mark's letter is drawn by CSS: the link's visible words are its name's start ("Notes"). */}
      <span className="brand-mark" aria-hidden="true" />
      <span className="brand-name">Notes</span>
    </Link>
  );
}
