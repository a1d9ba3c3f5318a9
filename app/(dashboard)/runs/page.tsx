import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { accountChoices } from "@/server/choices";
import { RUN_STATUSES, runFilterSchema } from "@/server/runs";
import { PageHeader } from "@/components/page-header";
import { RunTable } from "@/components/runs/run-table";
import { LiveCrawls } from "@/components/auto-refresh";
import { TableSkeleton } from "@/components/skeletons";
import { FilterSelect } from "@/components/filter-select";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("runs");
  return { title: t("title") };
}

export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requireUser();
  const filter = runFilterSchema.parse(await searchParams);
  const t = await getTranslations("runs");
  const accounts = await accountChoices(db);
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")}>
        <Link className="button secondary" href="/charts#crawl-health">
          {t("healthChart")}
        </Link>
      </PageHeader>
      <LiveCrawls />
      <form className="filters panel" method="get" action="/runs">
        <FilterSelect
          id="r-account"
          name="account"
          label={t("filters.account")}
          value={filter.account}
          anyLabel={t("filters.allAccounts")}
          options={accounts.map((a) => ({ value: a.id, label: a.name }))}
        />
        <FilterSelect
          id="r-status"
          name="status"
          label={t("filters.status")}
          value={filter.status}
          anyLabel={t("filters.anyStatus")}
          options={RUN_STATUSES.map((st) => ({ value: st, label: t("status", { status: st }) }))}
        />
        <div className="filter-actions">
          <button type="submit">{t("filters.apply")}</button>
          <Link className="button secondary" href="/runs">
            {t("filters.reset")}
          </Link>
        </div>
      </form>
      <Suspense key={JSON.stringify(filter)} fallback={<TableSkeleton rows={12} label={t("loading")} />}>
        <RunTable filter={filter} />
      </Suspense>
    </>
  );
}
