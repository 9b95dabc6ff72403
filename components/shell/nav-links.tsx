"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/notes", label: "Notes" },
  { href: "/tags", label: "Tags" },
  { href: "/trash", label: "Trash" },
  { href: "/connect", label: "Connect an agent", short: "Connect" },
];

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav className="main-nav" aria-label="Main">
      {LINKS.map((link) => {
        const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link key={link.href} href={link.href} aria-current={active ? "page" : undefined} aria-label={link.short ? link.label : undefined}>
            {link.short ? (
              <>
                <span className="hide-sm">{link.label}</span>
                <span className="show-sm">{link.short}</span>
              </>
            ) : (
              link.label
            )}
          </Link>
        );
      })}
    </nav>
  );
}
