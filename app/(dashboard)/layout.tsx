import { Nav } from "@/components/nav";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { db } from "@/lib/db";
import { signOut } from "@/app/(auth)/sign-in/actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const openFlags = await db.flag.count({ where: { status: "open" } });
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          CampusWatch<small>校园舆情监测</small>
        </div>
        <Nav admin={can(user.role, "manage-users")} openFlags={openFlags} />
        <div className="sidebar-foot">
          Signed in as <b>{user.username}</b> ({user.role})
          <form action={signOut}>
            <button type="submit" className="link">
              Sign out
            </button>
          </form>
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}
