import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { RunDetail } from "@/components/runs/run-detail";
import { PanelSkeleton } from "@/components/skeletons";

export const metadata = { title: "Crawl run" };
export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return (
    <Suspense fallback={<PanelSkeleton height={360} label="Loading run" />}>
      <RunDetail id={id} />
    </Suspense>
  );
}
