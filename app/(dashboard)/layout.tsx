import { getTranslations } from "next-intl/server";
import { Nav } from "@/components/nav";
import { LocaleSwitch } from "@/components/locale-switch";
import { requireUser } from "@/lib/auth/current-user";
import { can } from "@/lib/permissions";
import { db } from "@/lib/db";
import { openFlagCount } from "@/server/counts";
import { openCaseCount } from "@/server/cases";
import { signOut } from "@/app/(auth)/sign-in/actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const [openFlags, myCases, t, tc, tr] = await Promise.all([
    openFlagCount(db, user.topics),
    openCaseCount(db, user.id),
    getTranslations("shell"),
    getTranslations("common"),
    getTranslations("roles"),
  ]);
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          {tc("appName")}
          <small>{tc("tagline")}</small>
        </div>
        <Nav admin={can(user.role, "manage-users")} openFlags={openFlags} myCases={myCases} />
        <div className="sidebar-foot">
          {t.rich("signedInAs", { username: user.username, role: tr(user.role), b: (chunks) => <b>{chunks}</b> })}
          <form action={signOut}>
            <button type="submit" className="link">
              {t("signOut")}
            </button>
          </form>
          <LocaleSwitch />
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}
