import { Suspense } from "react";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { RUN_STATUSES, runFilterSchema } from "@/lib/queries/runs";
import { PageHeader } from "@/components/page-header";
import { RunTable } from "@/components/runs/run-table";
import { LiveCrawls } from "@/components/auto-refresh";
import { TableSkeleton } from "@/components/skeletons";
import { FilterSelect } from "@/components/filter-select";

export const metadata = { title: "Crawl runs" };
export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requireUser();
  const filter = runFilterSchema.parse(await searchParams);
  const accounts = await db.account.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
  return (
    <>
      <PageHeader title="Crawl runs" subtitle="Every crawl of every account: pages read, new and changed posts, blocks and errors.">
        <Link className="button secondary" href="/charts#crawl-health">
          Crawl health chart
        </Link>
      </PageHeader>
      <LiveCrawls />
      <form className="filters panel" method="get" action="/runs">
        <FilterSelect id="r-account" name="account" label="Account" value={filter.account} anyLabel="All accounts" options={accounts.map((a) => ({ value: a.id, label: a.name }))} />
        <FilterSelect id="r-status" name="status" label="Status" value={filter.status} anyLabel="Any status" options={RUN_STATUSES.map((st) => ({ value: st, label: st }))} />
        <div className="filter-actions">
          <button type="submit">Apply</button>
          <Link className="button secondary" href="/runs">
            Reset
          </Link>
        </div>
      </form>
      <Suspense key={JSON.stringify(filter)} fallback={<TableSkeleton rows={12} label="Loading runs" />}>
        <RunTable filter={filter} />
      </Suspense>
    </>
  );
}
