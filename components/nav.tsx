"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const SECTIONS: { title: string; links: { href: string; label: string; adminOnly?: boolean }[] }[] = [
  { title: "Review", links: [{ href: "/", label: "Flagged posts" }, { href: "/posts", label: "Posts" }] },
  { title: "Sources", links: [{ href: "/accounts", label: "Accounts" }, { href: "/runs", label: "Crawl runs" }, { href: "/workers", label: "Workers" }, { href: "/seeds", label: "Seeds" }, { href: "/discovery", label: "Discovery" }] },
  { title: "Analysis", links: [{ href: "/topics", label: "Topics" }, { href: "/charts", label: "Charts" }] },
  { title: "Admin", links: [{ href: "/users", label: "Users", adminOnly: true }] },
];

/** Sidebar navigation; marks the current section. Reviewers do not see the admin-only pages. */
export function Nav({ admin = false, openFlags }: { admin?: boolean; openFlags?: number }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {SECTIONS.map((s) => {
        const links = s.links.filter((l) => admin || !l.adminOnly);
        if (links.length === 0) return null;
        return (
          <div key={s.title}>
            <div className="nav-section">{s.title}</div>
            {links.map((l) => {
              const current = l.href === "/" ? pathname === "/" : pathname.startsWith(l.href);
              return (
                <Link key={l.href} href={l.href} aria-current={current ? "page" : undefined}>
                  {l.label}
                  {l.href === "/" && openFlags ? <span className="count" title="open flags">{openFlags > 999 ? "999+" : openFlags}</span> : null}
                </Link>
              );
            })}
          </div>
        );
      })}
    </nav>
  );
}
