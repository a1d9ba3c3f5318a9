import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { AccountDetail } from "@/components/accounts/account-detail";
import { PanelSkeleton } from "@/components/skeletons";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("accounts");
  return { title: t("detailTitle") };
}

export const dynamic = "force-dynamic";

export default async function AccountPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string; days?: string }>;
}) {
  const user = await requireUser();
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const sp = await searchParams;
  const t = await getTranslations("accounts");
  return (
    <Suspense fallback={<PanelSkeleton height={300} label={t("loadingOne")} />}>
      <AccountDetail id={id} admin={can(user.role, "manage-accounts")} saved={Boolean(sp.saved)} days={sp.days} />
    </Suspense>
  );
}
