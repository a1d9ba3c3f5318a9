import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { listAccounts } from "@/lib/queries/accounts";
import { formatTime } from "@/lib/format";
import { PlatformBadge } from "@/components/platform-badge";

export const metadata = { title: "Accounts" };
export const dynamic = "force-dynamic";

export default async function AccountsPage() {
  await requireUser();
  const accounts = await listAccounts(db);
  return (
    <>
      <h1>Accounts</h1>
      {accounts.length === 0 ? (
        <div className="panel empty">No accounts yet. Add one with <code>npx campuswatch accounts add URL</code>.</div>
      ) : (
        <table className="data">
          <thead>
            <tr><th>Name</th><th>Platform</th><th>Interval</th><th>Status</th><th>Last run</th><th>Next run</th><th className="num">Posts</th><th className="num">Errors</th></tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <td>
                  <div>{a.name}</div>
                  <div className="muted" style={{ fontSize: 12 }}>{a.entryUrl}</div>
                </td>
                <td><PlatformBadge platform={a.platform} /></td>
                <td><code>{a.cron}</code></td>
                <td>{a.enabled ? <span className={`badge ${a.status === "error" || a.status === "blocked" ? "danger" : "ok"}`}>{a.status}</span> : <span className="badge">disabled</span>}</td>
                <td>{formatTime(a.lastRunAt)}</td>
                <td>{formatTime(a.nextRunAt)}</td>
                <td className="num">{a.postCount}</td>
                <td className="num">{a.errorCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
