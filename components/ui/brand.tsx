import Link from "next/link";

export function Brand({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="brand" aria-label="Notes home">
      <span className="brand-mark" aria-hidden="true">
        N
      </span>
      <span className="brand-name">Notes</span>
    </Link>
  );
}
