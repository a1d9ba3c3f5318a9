import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requirePermission } from "@/lib/auth/current-user";
import { Suspense } from "react";
import { PageHeader, Notice } from "@/components/page-header";
import { NewUserForm } from "@/components/users/user-forms";
import { UserTable } from "@/components/users/user-table";
import { TableSkeleton } from "@/components/skeletons";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("users");
  return { title: t("title") };
}

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ created?: string; deleted?: string }> }) {
  const me = await requirePermission("manage-users");
  const sp = await searchParams;
  const t = await getTranslations("users");
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      {sp.created && <Notice>{t("created", { username: sp.created })}</Notice>}
      {sp.deleted && <Notice>{t("deleted")}</Notice>}
      <Suspense fallback={<TableSkeleton rows={3} label={t("loading")} />}>
        <UserTable me={me} />
      </Suspense>
      <section className="panel" aria-labelledby="new-user-h">
        <h2 id="new-user-h">{t("new.heading")}</h2>
        <NewUserForm />
      </section>
    </>
  );
}
