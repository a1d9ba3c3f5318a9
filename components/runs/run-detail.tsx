import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { getRun } from "@/lib/queries/runs";
import { PageHeader } from "../page-header";
import { PlatformBadge } from "../platform-badge";
import { RUN_CLASS } from "./run-table";
import { LiveCrawls } from "../auto-refresh";
import { Time } from "../time";

/** One crawl run: pages by kind, posts, blocks, errors and the notifications it sent. */
export async function RunDetail({ id }: { id: number }) {
  const run = await getRun(db, id);
  if (!run) notFound();
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <>
      <p className="crumbs">
        <Link href="/runs">Crawl runs</Link> / #{run.id}
      </p>
      <PageHeader
        title={`Crawl run #${run.id}`}
        subtitle={
          <>
            <PlatformBadge platform={run.account.platform} /> <Link href={`/accounts/${run.account.id}`}>{run.account.name}</Link> · {run.trigger} · started{" "}
            <Time date={run.startedAt} withYear /> · <span className={`badge ${RUN_CLASS[run.status] ?? ""}`}>{run.status}</span>
          </>
        }
      />
      {run.status === "running" && <LiveCrawls intervalMs={1500} />}
      <div className="two-col">
        <section className="panel">
          <h2>Pages</h2>
          <div className="kv">
            <div>
              <b>{n(run.pagesList)}</b>list pages
            </div>
            <div>
              <b>{n(run.pagesItem)}</b>item pages
            </div>
            <div>
              <b>{n(run.pagesOther)}</b>other pages
            </div>
            <div>
              <b>{n(run.browserPages)}</b>through the browser
            </div>
            <div>
              <b>{(run.bytes / 1024).toFixed(0)} KiB</b>downloaded
            </div>
            <div>
              <b>{run.pagesPerMinute.toFixed(1)}</b>pages per minute
            </div>
            <div>
              <b>{run.seconds.toFixed(1)} s</b>
              {run.finishedAt ? "duration" : "so far"}
            </div>
          </div>
        </section>
        <section className="panel">
          <h2>Posts</h2>
          <div className="kv">
            <div>
              <b>{n(run.newPosts)}</b>new
            </div>
            <div>
              <b>{n(run.changedPosts)}</b>changed (new version)
            </div>
            <div>
              <b>{n(run.unchangedPosts)}</b>unchanged
            </div>
            <div>
              <b className={run.blocks ? "error-count" : undefined}>{n(run.blocks)}</b>blocks (rate limit, captcha, 403)
            </div>
            <div>
              <b className={run.errorCount ? "error-count" : undefined}>{n(run.errorCount)}</b>errors
            </div>
          </div>
          {run.newPosts + run.changedPosts > 0 && (
            <p className="small">
              <Link href={`/posts?account=${run.account.id}`}>See the account’s posts →</Link>
            </p>
          )}
        </section>
      </div>
      <section className="panel">
        <h2>Errors ({run.errorList.length})</h2>
        {run.errorList.length === 0 ? (
          <p className="muted">No errors.</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>Time</th>
                <th>Kind</th>
                <th>Reason</th>
                <th>URL</th>
              </tr>
            </thead>
            <tbody>
              {run.errorList.map((e, i) => (
                <tr key={i}>
                  <td className="nowrap">{e.at ? <Time date={new Date(e.at)} withYear /> : "—"}</td>
                  <td>
                    <span className={`badge ${e.kind === "BlockedError" ? "danger" : "warn"}`}>{e.kind}</span>
                  </td>
                  <td>{e.reason}</td>
                  <td className="small" style={{ wordBreak: "break-all" }}>
                    {e.url}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {run.note && <p className="muted">Note: {run.note}</p>}
      <section className="panel">
        <h2>Notifications ({run.notifications.length})</h2>
        {run.notifications.length === 0 ? (
          <p className="muted">No notifications were sent for this run.</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>Topic</th>
                <th>Channel</th>
                <th>Target</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Last error</th>
              </tr>
            </thead>
            <tbody>
              {run.notifications.map((x) => (
                <tr key={x.id}>
                  <td>{x.topic.name}</td>
                  <td>{x.channel}</td>
                  <td className="small">{x.target}</td>
                  <td>
                    <span className={`badge ${x.status === "sent" ? "ok" : x.status === "failed" ? "danger" : "info"}`}>{x.status}</span>
                  </td>
                  <td className="num">{x.attempts}</td>
                  <td className="small">{x.lastError}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
