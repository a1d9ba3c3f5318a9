import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { CRON_PRESETS } from "@/lib/validation";
import { PageHeader, Notice } from "@/components/page-header";
import { AccountForm } from "@/components/accounts/account-form";
import { AccountTable } from "@/components/accounts/account-table";
import { LiveCrawls } from "@/components/auto-refresh";
import { TableSkeleton } from "@/components/skeletons";
import { createAccountAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("accounts");
  return { title: t("title") };
}

export const dynamic = "force-dynamic";

export default async function AccountsPage({ searchParams }: { searchParams: Promise<{ added?: string; deleted?: string }> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const admin = can(user.role, "manage-accounts");
  const t = await getTranslations("accounts");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      {sp.added && <Notice>{t("added")}</Notice>}
      {sp.deleted && <Notice>{t("deleted")}</Notice>}
      {admin && (
        <section className="panel" aria-labelledby="add-h">
          <h2 id="add-h">{t("addHeading")}</h2>
          <AccountForm action={createAccountAction} presets={CRON_PRESETS} submitLabel={t("addSubmit")} />
        </section>
      )}
      <LiveCrawls />
      <Suspense fallback={<TableSkeleton rows={6} label={t("loading")} />}>
        <AccountTable admin={admin} />
      </Suspense>
    </>
  );
}
