import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { getWorkerOverview } from "@/server/workers";
import { PageHeader } from "@/components/page-header";
import { PeriodicRefresh } from "@/components/workers/refresh";
import { WorkerOverviewView } from "@/components/workers/worker-overview";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("workers");
  return { title: t("title") };
}

export const dynamic = "force-dynamic";

export default async function WorkersPage() {
  await requireUser();
  const overview = await getWorkerOverview(db);
  const t = await getTranslations("workers");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      <PeriodicRefresh />
      <WorkerOverviewView overview={overview} />
    </>
  );
}
