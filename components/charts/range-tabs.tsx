import Link from "next/link";
import { getTranslations } from "next-intl/server";

/** The "7 days / 30 days / …" links of a page's charts, the current one marked. */
export async function RangeTabs({ ranges, current, href }: { ranges: readonly number[]; current: number; href: (days: number) => string }) {
  const t = await getTranslations("charts.page");
  return (
    <nav className="range-tabs" aria-label={t("range")}>
      {ranges.map((r) => (
        <Link key={r} href={href(r)} aria-current={r === current ? "page" : undefined}>
          {t("rangeOption", { days: String(r) })}
        </Link>
      ))}
    </nav>
  );
}
