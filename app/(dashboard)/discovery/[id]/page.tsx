import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { PanelSkeleton } from "@/components/skeletons";
import { DiscoveryRunDetail } from "@/components/discovery/run-detail";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("discovery");
  return { title: t("runTitle") };
}
export const dynamic = "force-dynamic";

export default async function DiscoveryRunPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, t] = await Promise.all([requireUser(), getTranslations("discovery")]);
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return (
    <Suspense fallback={<PanelSkeleton height={420} label={t("loadingRun")} />}>
      <DiscoveryRunDetail id={id} canRun={can(user.role, "run-crawls")} canAdopt={can(user.role, "manage-accounts")} />
    </Suspense>
  );
}
