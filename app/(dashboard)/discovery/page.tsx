import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader } from "@/components/page-header";
import { PanelSkeleton, TableSkeleton } from "@/components/skeletons";
import { CandidatesTable } from "@/components/discovery/candidates";
import { StrategyComparison } from "@/components/discovery/comparison";
import { DiscoveryRunsTable } from "@/components/discovery/runs-table";
import { StartDiscoveryPanel } from "@/components/discovery/start-panel";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("discovery");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

export default async function DiscoveryPage() {
  const [user, t] = await Promise.all([requireUser(), getTranslations("discovery")]);
  return (
    <>
      <PageHeader title={t("heading")} subtitle={t("subtitle")} />
      {can(user.role, "run-crawls") && (
        <section className="panel" aria-labelledby="start-h">
          <h2 id="start-h">{t("start")}</h2>
          <Suspense fallback={<PanelSkeleton height={140} label={t("loadingStart")} />}>
            <StartDiscoveryPanel />
          </Suspense>
        </section>
      )}
      <section aria-labelledby="compare-h">
        <h2 id="compare-h">{t("compare")}</h2>
        <Suspense fallback={<PanelSkeleton height={300} label={t("loadingCurves")} />}>
          <StrategyComparison />
        </Suspense>
      </section>
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">{t("runs")}</h2>
        <Suspense fallback={<TableSkeleton label={t("loadingRuns")} />}>
          <DiscoveryRunsTable />
        </Suspense>
      </section>
      <section className="panel" aria-labelledby="cands-h">
        <h2 id="cands-h">{t("candidatesHeading")}</h2>
        <Suspense fallback={<TableSkeleton rows={4} label={t("loadingCandidates")} />}>
          <CandidatesTable canAdopt={can(user.role, "manage-accounts")} />
        </Suspense>
      </section>
    </>
  );
}
