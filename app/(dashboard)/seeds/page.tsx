import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader, Notice } from "@/components/page-header";
import { NewSeedSetForm } from "@/components/seeds/seed-forms";
import { TableSkeleton } from "@/components/skeletons";
import { SeedSetTable } from "@/components/seeds/seed-set-table";

export const metadata = { title: "Seeds" };
export const dynamic = "force-dynamic";

export default async function SeedsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const user = await requireUser();
  const sp = await searchParams;
  return (
    <>
      <PageHeader title="Seed URL sets" subtitle="Named starting points for topic discovery: forum front pages, Tieba bars, blog directories." />
      {sp.deleted && <Notice>Seed set deleted.</Notice>}
      <Suspense fallback={<TableSkeleton rows={3} />}>
        <SeedSetTable />
      </Suspense>
      {can(user.role, "manage-seeds") && (
        <section className="panel" aria-labelledby="new-seed-h">
          <h2 id="new-seed-h">New seed set</h2>
          <NewSeedSetForm />
        </section>
      )}
    </>
  );
}
