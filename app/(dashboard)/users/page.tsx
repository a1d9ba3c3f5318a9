import { requirePermission } from "@/lib/auth/current-user";
import { Suspense } from "react";
import { PageHeader, Notice } from "@/components/page-header";
import { NewUserForm } from "@/components/users/user-forms";
import { UserTable } from "@/components/users/user-table";
import { TableSkeleton } from "@/components/skeletons";

export const metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ created?: string; deleted?: string }> }) {
  const me = await requirePermission("manage-users");
  const sp = await searchParams;
  return (
    <>
      <PageHeader title="Users" subtitle="Admins manage everything; reviewers review flags and export." />
      {sp.created && <Notice>User {sp.created} created.</Notice>}
      {sp.deleted && <Notice>User deleted.</Notice>}
      <Suspense fallback={<TableSkeleton rows={3} label="Loading users" />}>
        <UserTable me={me} />
      </Suspense>
      <section className="panel" aria-labelledby="new-user-h">
        <h2 id="new-user-h">New user</h2>
        <NewUserForm />
      </section>
    </>
  );
}
