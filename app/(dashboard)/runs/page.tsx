import { Suspense } from "react";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { RUN_STATUSES, runFilterSchema } from "@/lib/queries/runs";
import { PageHeader } from "@/components/page-header";
import { RunTable } from "@/components/runs/run-table";
import { LiveCrawls } from "@/components/auto-refresh";
import { TableSkeleton } from "@/components/skeletons";

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
        <div className="filter-field">
          <label htmlFor="r-account">Account</label>
          <select id="r-account" name="account" defaultValue={filter.account ?? ""}>
            <option value="">All accounts</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-field">
          <label htmlFor="r-status">Status</label>
          <select id="r-status" name="status" defaultValue={filter.status ?? ""}>
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
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
