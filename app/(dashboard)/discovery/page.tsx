import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PageHeader } from "@/components/page-header";
import { PanelSkeleton, TableSkeleton } from "@/components/skeletons";
import { CandidatesTable } from "@/components/discovery/candidates";
import { StrategyComparison } from "@/components/discovery/comparison";
import { DiscoveryRunsTable } from "@/components/discovery/runs-table";
import { StartDiscoveryPanel } from "@/components/discovery/start-panel";

export const metadata = { title: "Discovery" };
export const dynamic = "force-dynamic";

export default async function DiscoveryPage() {
  const user = await requireUser();
  return (
    <>
      <PageHeader title="Discovery" subtitle="Focused crawls from seed URLs: find the pages and the sites that write about a topic" />
      {can(user.role, "run-crawls") && (
        <section className="panel" aria-labelledby="start-h">
          <h2 id="start-h">Start a discovery run</h2>
          <Suspense fallback={<PanelSkeleton height={140} label="Loading topics and seed sets" />}>
            <StartDiscoveryPanel />
          </Suspense>
        </section>
      )}
      <section aria-labelledby="compare-h">
        <h2 id="compare-h">Strategies side by side</h2>
        <Suspense fallback={<PanelSkeleton height={300} label="Loading harvest curves" />}>
          <StrategyComparison />
        </Suspense>
      </section>
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Runs</h2>
        <Suspense fallback={<TableSkeleton label="Loading runs" />}>
          <DiscoveryRunsTable />
        </Suspense>
      </section>
      <section className="panel" aria-labelledby="cands-h">
        <h2 id="cands-h">Candidate accounts</h2>
        <Suspense fallback={<TableSkeleton rows={4} label="Loading candidates" />}>
          <CandidatesTable canAdopt={can(user.role, "manage-accounts")} />
        </Suspense>
      </section>
    </>
  );
}
