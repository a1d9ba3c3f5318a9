import Link from "next/link";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { CHART_RANGES, rangeDays } from "@/lib/queries/charts";
import { PageHeader } from "@/components/page-header";
import { PanelSkeleton } from "@/components/skeletons";
import { ActivitySection, FlagsSection, HarvestSection, HealthSection, PostsSection, TermsSection, TopicRateSection } from "@/components/charts/sections";

export const metadata = { title: "Charts" };
export const dynamic = "force-dynamic";

export default async function ChartsPage({ searchParams }: { searchParams: Promise<{ days?: string }> }) {
  await requireUser();
  const requested = Number((await searchParams).days);
  const range = (CHART_RANGES as readonly number[]).includes(requested) ? requested : 90;
  const days = rangeDays(range);
  const s = (node: React.ReactNode, label: string) => <Suspense fallback={<PanelSkeleton height={300} label={`Loading ${label}`} />}>{node}</Suspense>;
  return (
    <>
      <PageHeader title="Charts" subtitle={`${days[0]} – ${days.at(-1)} (Asia/Shanghai)`}>
        <nav className="range-tabs" aria-label="Range">
          {CHART_RANGES.map((r) => (
            <Link key={r} href={`/charts?days=${r}`} aria-current={r === range ? "page" : undefined}>
              {r === 365 ? "1 year" : `${r} days`}
            </Link>
          ))}
        </nav>
      </PageHeader>
      <div className="chart-grid">
        {s(<PostsSection days={days} />, "posts")}
        {s(<FlagsSection days={days} />, "flags")}
        {s(<TopicRateSection days={days} />, "flag rate")}
        {s(<TermsSection />, "top terms")}
        {s(<HealthSection days={days} />, "crawl health")}
        {s(<ActivitySection days={days} />, "account activity")}
        {s(<HarvestSection />, "harvest rate")}
      </div>
    </>
  );
}
