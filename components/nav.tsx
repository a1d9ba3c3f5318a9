"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";

type SectionKey = "review" | "sources" | "analysis" | "admin" | "me";
type LinkKey =
  | "flags"
  | "incidents"
  | "posts"
  | "todo"
  | "accounts"
  | "runs"
  | "workers"
  | "seeds"
  | "discovery"
  | "topics"
  | "charts"
  | "reports"
  | "users"
  | "audit"
  | "tokens";

/** The sections and their pages; titles and labels are message keys under `nav`. */
const SECTIONS: { title: SectionKey; links: { href: string; label: LinkKey; adminOnly?: boolean }[] }[] = [
  {
    title: "review",
    links: [
      { href: "/", label: "flags" },
      { href: "/incidents", label: "incidents" },
      { href: "/posts", label: "posts" },
      { href: "/todo", label: "todo" },
    ],
  },
  {
    title: "sources",
    links: [
      { href: "/accounts", label: "accounts" },
      { href: "/runs", label: "runs" },
      { href: "/workers", label: "workers" },
      { href: "/seeds", label: "seeds" },
      { href: "/discovery", label: "discovery" },
    ],
  },
  {
    title: "analysis",
    links: [
      { href: "/topics", label: "topics" },
      { href: "/charts", label: "charts" },
      { href: "/reports", label: "reports" },
    ],
  },
  {
    title: "admin",
    links: [
      { href: "/users", label: "users", adminOnly: true },
      { href: "/audit", label: "audit", adminOnly: true },
    ],
  },
  { title: "me", links: [{ href: "/tokens", label: "tokens" }] },
];

/** Sidebar navigation; marks the current section, counts open flags and the user's open cases. Reviewers do not see the admin-only pages. */
export function Nav({ admin = false, openFlags, myCases }: { admin?: boolean; openFlags?: number; myCases?: number }) {
  const pathname = usePathname();
  const t = useTranslations("nav");
  return (
    <nav className="nav" aria-label={t("label")}>
      {SECTIONS.map((s) => {
        const links = s.links.filter((l) => admin || !l.adminOnly);
        if (links.length === 0) return null;
        return (
          <div key={s.title}>
            <div className="nav-section">{t(`sections.${s.title}`)}</div>
            {links.map((l) => {
              const current = l.href === "/" ? pathname === "/" : pathname.startsWith(l.href);
              return (
                <Link key={l.href} href={l.href} aria-current={current ? "page" : undefined}>
                  {t(`links.${l.label}`)}
                  {l.href === "/" && openFlags ? (
                    <span className="count" title={t("openFlags")}>
                      {openFlags > 999 ? "999+" : openFlags}
                    </span>
                  ) : null}
                  {l.href === "/todo" && myCases ? (
                    <span className="count" title={t("myOpenCases")} data-testid="my-cases-count">
                      {myCases > 999 ? "999+" : myCases}
                    </span>
                  ) : null}
                </Link>
              );
            })}
          </div>
        );
      })}
    </nav>
  );
}
