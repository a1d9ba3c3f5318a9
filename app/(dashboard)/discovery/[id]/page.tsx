import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PanelSkeleton } from "@/components/skeletons";
import { DiscoveryRunDetail } from "@/components/discovery/run-detail";

export const metadata = { title: "Discovery run" };
export const dynamic = "force-dynamic";

export default async function DiscoveryRunPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return (
    <Suspense fallback={<PanelSkeleton height={420} label="Loading discovery run" />}>
      <DiscoveryRunDetail id={id} canRun={can(user.role, "run-crawls")} canAdopt={can(user.role, "manage-accounts")} />
    </Suspense>
  );
}
