import Link from "next/link";
import { db } from "@/lib/db";
import { deletionImpact, listAccountStatus, type AccountStatus } from "@/lib/queries/accounts";
import { CRON_PRESETS } from "@/lib/validation";
import { PlatformBadge } from "../platform-badge";
import { readableUrl } from "../readable-url";
import { RelativeTime, Time } from "../time";
import { AccountActions } from "./account-actions";

const RUN_CLASS: Record<string, string> = { ok: "ok", running: "info", partial: "warn", failed: "danger", skipped: "" };

/** A cron expression in words when it is a preset. */
export function describeCron(cron: string): string {
  return CRON_PRESETS.find((p) => p.cron === cron)?.label ?? cron;
}

function StatusBadge({ a }: { a: AccountStatus }) {
  if (!a.enabled) return <span className="badge">disabled</span>;
  if (a.status === "running") return <span className="badge info">crawling</span>;
  if (a.crawlRequestedAt) return <span className="badge info">queued</span>;
  if (a.status === "error") return <span className="badge danger" title={a.lastError ?? ""}>error</span>;
  if (a.status === "blocked") return <span className="badge danger" title={a.lastError ?? ""}>blocked</span>;
  return <span className="badge ok">active</span>;
}

/** Every account with its schedule, status and counts; admins get the actions. */
export async function AccountTable({ admin }: { admin: boolean }) {
  const accounts = await listAccountStatus(db);
  if (accounts.length === 0) {
    return <div className="panel empty">No accounts yet. {admin ? "Paste a URL above to add the first one." : "An administrator adds them."}</div>;
  }
  const impacts = admin ? await Promise.all(accounts.map((a) => deletionImpact(db, a.id))) : [];
  const now = new Date();
  return (
    <div className="table-wrap">
      <table className="data" data-testid="account-table">
        <thead>
          <tr>
            <th>Account</th>
            <th>Platform</th>
            <th>Interval</th>
            <th>Status</th>
            <th>Last run</th>
            <th>Next run</th>
            <th className="num">Posts</th>
            <th className="num">Open flags</th>
            <th className="num" title="Errors in crawl runs of the last 7 days">Errors 7 d</th>
            {admin && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {accounts.map((a, i) => (
            <tr key={a.id} data-testid={`account-${a.id}`}>
              <td>
                <Link href={`/accounts/${a.id}`} className="post-title">
                  {a.name}
                </Link>
                <div className="muted small" style={{ wordBreak: "break-all" }}>
                  {readableUrl(a.entryUrl)}
                </div>
              </td>
              <td>
                <PlatformBadge platform={a.platform} />
              </td>
              <td className="interval">
                {describeCron(a.cron)}
                {describeCron(a.cron) !== a.cron && (
                  <div>
                    <code className="cron">{a.cron}</code>
                  </div>
                )}
              </td>
              <td>
                <StatusBadge a={a} />
                {a.lastError && a.enabled && a.status !== "idle" && <div className="field-error small">{a.lastError.slice(0, 80)}</div>}
              </td>
              <td className="nowrap">
                {a.lastRun ? (
                  <>
                    <Link href={`/runs/${a.lastRun.id}`}>
                      <Time date={a.lastRunAt} />
                    </Link>{" "}
                    <span className={`badge ${RUN_CLASS[a.lastRun.status] ?? ""}`}>{a.lastRun.status}</span>
                  </>
                ) : (
                  <span className="muted">never</span>
                )}
              </td>
              <td className="nowrap">{a.nextRunAt ? <RelativeTime date={a.nextRunAt} now={now} /> : <span className="muted">—</span>}</td>
              <td className="num">
                <Link href={`/posts?account=${a.id}`}>{a.postCount.toLocaleString("en-US")}</Link>
              </td>
              <td className="num">{a.openFlags ? <Link href={`/?account=${a.id}&review=open`}>{a.openFlags.toLocaleString("en-US")}</Link> : 0}</td>
              <td className={`num${a.errors7d ? " error-count" : ""}`}>
                {a.errors7d}
                {a.blocks7d > 0 && <div className="muted small">{a.blocks7d} blocked</div>}
              </td>
              {admin && (
                <td>
                  <AccountActions id={a.id} name={a.name} enabled={a.enabled} queued={Boolean(a.crawlRequestedAt)} running={a.status === "running"} impact={impacts[i]!} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
