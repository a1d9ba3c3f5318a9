import type { Metadata } from "next";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { parseIncidentFilter } from "@/server/incidents";
import { PageHeader } from "@/components/page-header";
import { IncidentFilterBar, IncidentList } from "@/components/incidents/incident-list";
import { PanelSkeleton, TableSkeleton } from "@/components/skeletons";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("incidents.pages");
  return { title: t("listTitle") };
}
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/** 事件: incidents by heat with their trend, platforms, reach, dates, flags and status. */
export default async function IncidentsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const filter = { ...parseIncidentFilter(await searchParams), scope: user.topics };
  const t = await getTranslations("incidents.list");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      <Suspense fallback={<PanelSkeleton height={80} label={t("filterLabel")} />}>
        <IncidentFilterBar filter={filter} />
      </Suspense>
      <Suspense key={JSON.stringify(filter)} fallback={<TableSkeleton rows={10} label={t("title")} />}>
        <IncidentList filter={filter} />
      </Suspense>
    </>
  );
}
