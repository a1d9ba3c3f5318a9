import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { getWorkerOverview } from "@/lib/queries/workers";
import { PageHeader } from "@/components/page-header";
import { PeriodicRefresh } from "@/components/workers/refresh";
import { WorkerOverviewView } from "@/components/workers/worker-overview";

export const metadata = { title: "Workers" };
export const dynamic = "force-dynamic";

export default async function WorkersPage() {
  await requireUser();
  const overview = await getWorkerOverview(db);
  return (
    <>
      <PageHeader title="Workers" subtitle="Crawler processes, the jobs they are running, and the crawl queue." />
      <PeriodicRefresh />
      <WorkerOverviewView overview={overview} />
    </>
  );
}
