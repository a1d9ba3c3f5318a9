"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Flagged posts" },
  { href: "/posts", label: "All posts" },
  { href: "/accounts", label: "Accounts" },
  { href: "/topics", label: "Topics" },
  { href: "/seeds", label: "Seeds" },
  { href: "/runs", label: "Crawl runs" },
  { href: "/charts", label: "Charts" },
  { href: "/users", label: "Users" },
];

/** Sidebar navigation; marks the current section. */
export function Nav() {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {LINKS.map((l) => {
        const current = l.href === "/" ? pathname === "/" : pathname.startsWith(l.href);
        return (
          <Link key={l.href} href={l.href} aria-current={current ? "page" : undefined}>
            {l.label}
          </Link>
        );
      })}
    </nav>
  );
}
