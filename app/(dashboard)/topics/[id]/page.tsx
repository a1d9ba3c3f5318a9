import { notFound } from "next/navigation";
import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { TopicDetailView } from "@/components/topics/topic-detail";
import { PanelSkeleton } from "@/components/skeletons";

export async function generateMetadata() {
  const t = await getTranslations("topics.page");
  return { title: t("topicTitle") };
}
export const dynamic = "force-dynamic";

export default async function TopicPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string; created?: string; days?: string }>;
}) {
  const user = await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const sp = await searchParams;
  const t = await getTranslations("topics.page");
  return (
    <Suspense fallback={<PanelSkeleton height={420} label={t("loadingTopic")} />}>
      <TopicDetailView id={id} admin={can(user.role, "manage-topics")} saved={Boolean(sp.saved)} created={Boolean(sp.created)} days={sp.days} />
    </Suspense>
  );
}
