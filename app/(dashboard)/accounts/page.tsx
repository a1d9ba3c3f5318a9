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

export const metadata = { title: "Accounts" };
export const dynamic = "force-dynamic";

export default async function AccountsPage({ searchParams }: { searchParams: Promise<{ added?: string; deleted?: string }> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const admin = can(user.role, "manage-accounts");
  return (
    <>
      <PageHeader title="Accounts" subtitle="Blogs, Weibo users, Tieba bars and Discuz! boards being watched, with their schedules and health." />
      {sp.added && <Notice>Account added. Its first crawl starts at the next scheduled time — or press “Crawl now”.</Notice>}
      {sp.deleted && <Notice>Account deleted with its posts.</Notice>}
      {admin && (
        <section className="panel" aria-labelledby="add-h">
          <h2 id="add-h">Add an account</h2>
          <AccountForm action={createAccountAction} presets={CRON_PRESETS} submitLabel="Add account" />
        </section>
      )}
      <LiveCrawls />
      <Suspense fallback={<TableSkeleton rows={6} label="Loading accounts" />}>
        <AccountTable admin={admin} />
      </Suspense>
    </>
  );
}
