import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { CHART_RANGES, chartRange, rangeDays } from "@/server/charts";
import { RangeTabs } from "@/components/charts/range-tabs";
import { PageHeader } from "@/components/page-header";
import { PanelSkeleton } from "@/components/skeletons";
import {
  ActivitySection,
  DeletionsSection,
  FlagsSection,
  HarvestSection,
  HealthSection,
  PostsSection,
  TermsSection,
  TopicRateSection,
} from "@/components/charts/sections";

export async function generateMetadata() {
  const t = await getTranslations("charts.page");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

export default async function ChartsPage({ searchParams }: { searchParams: Promise<{ days?: string }> }) {
  await requireUser();
  const range = chartRange((await searchParams).days, CHART_RANGES, 90);
  const days = rangeDays(range);
  const t = await getTranslations("charts.page");
  const s = (node: React.ReactNode, label: string) => (
    <Suspense fallback={<PanelSkeleton height={300} label={t("loading", { section: label })} />}>{node}</Suspense>
  );
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle", { from: days[0] ?? "", to: days.at(-1) ?? "" })}>
        <RangeTabs ranges={CHART_RANGES} current={range} href={(r) => `/charts?days=${r}`} />
      </PageHeader>
      <div className="chart-grid">
        {s(<PostsSection days={days} />, t("sectionPosts"))}
        {s(<FlagsSection days={days} />, t("sectionFlags"))}
        {s(<DeletionsSection days={days} />, t("sectionDeletions"))}
        {s(<TopicRateSection days={days} />, t("sectionFlagRate"))}
        {s(<TermsSection />, t("sectionTerms"))}
        {s(<HealthSection days={days} />, t("sectionHealth"))}
        {s(<ActivitySection days={days} />, t("sectionActivity"))}
        {s(<HarvestSection />, t("sectionHarvest"))}
      </div>
    </>
  );
}
