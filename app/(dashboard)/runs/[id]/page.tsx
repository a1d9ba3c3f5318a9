import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { RunDetail } from "@/components/runs/run-detail";
import { PanelSkeleton } from "@/components/skeletons";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("runs.detail");
  return { title: t("pageTitle") };
}

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const t = await getTranslations("runs.detail");
  return (
    <Suspense fallback={<PanelSkeleton height={360} label={t("loading")} />}>
      <RunDetail id={id} />
    </Suspense>
  );
}
