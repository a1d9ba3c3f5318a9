import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { SeedSetDetail } from "@/components/seeds/seed-set-detail";
import { PanelSkeleton } from "@/components/skeletons";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("seeds");
  return { title: t("setTitle") };
}
export const dynamic = "force-dynamic";

export default async function SeedSetPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ imported?: string; invalid?: string }>;
}) {
  const user = await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const [sp, t] = await Promise.all([searchParams, getTranslations("seeds")]);
  return (
    <Suspense fallback={<PanelSkeleton height={300} label={t("loadingSet")} />}>
      <SeedSetDetail id={id} admin={can(user.role, "manage-seeds")} imported={sp.imported} invalid={sp.invalid} />
    </Suspense>
  );
}
