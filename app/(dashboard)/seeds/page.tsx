import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader, Notice } from "@/components/page-header";
import { NewSeedSetForm } from "@/components/seeds/seed-forms";
import { TableSkeleton } from "@/components/skeletons";
import { SeedSetTable } from "@/components/seeds/seed-set-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("seeds");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

export default async function SeedsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const user = await requireUser();
  const [sp, t] = await Promise.all([searchParams, getTranslations("seeds")]);
  return (
    <>
      <PageHeader title={t("heading")} subtitle={t("subtitle")} />
      {sp.deleted && <Notice>{t("deleted")}</Notice>}
      <Suspense fallback={<TableSkeleton rows={3} />}>
        <SeedSetTable />
      </Suspense>
      {can(user.role, "manage-seeds") && (
        <section className="panel" aria-labelledby="new-seed-h">
          <h2 id="new-seed-h">{t("newSet")}</h2>
          <NewSeedSetForm />
        </section>
      )}
    </>
  );
}
