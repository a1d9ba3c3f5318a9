import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { BrowserSandboxNote } from "@/lib/browser-sandbox";
import type { WorkerOverview } from "@/server/workers";
import { RelativeTime, Time } from "../time";

const STATUS_CLASS: Record<string, string> = { running: "ok", stale: "warn", dead: "danger", stopped: "" };
const JOB_CLASS: Record<string, string> = { completed: "ok", active: "info", created: "", retry: "warn", failed: "danger", cancelled: "" };

/**
 * How the crawler's Chromium is confined on this machine. A browser without its sandbox is said
 * plainly (crawled pages run scripts); a sandboxed one in one quiet line.
 */
async function BrowserSandbox({ note, dialect }: { note: BrowserSandboxNote | null; dialect: WorkerOverview["dialect"] }) {
  if (!note) return null;
  const t = await getTranslations("workers.sandbox");
  const code = (chunks: React.ReactNode) => <code>{chunks}</code>;
  const where = t.rich("where", {
    hostname: note.hostname,
    pid: String(note.pid),
    user: note.user,
    uid: String(note.uid),
    muted: (chunks) => <span className="muted">{chunks}</span>,
    code,
    time: () => <Time date={new Date(note.at)} />,
  });
  // Only this machine's crawling processes write the note; say so where workers may run elsewhere.
  const elsewhere = () => (dialect === "postgresql" ? t("elsewhere") : null);
  if (note.sandbox) {
    return (
      <p className="muted" data-testid="browser-sandbox" data-sandbox="yes">
        {t.rich("on", { where: () => where, elsewhere })}
      </p>
    );
  }
  return (
    <div className="panel" role="status" data-testid="browser-sandbox" data-sandbox="no">
      <p>
        <span className="badge warn">{t("badge")}</span> {t.rich("off", { where: () => where, elsewhere, code, b: (chunks) => <b>{chunks}</b> })}
      </p>
      <p className="muted">{t.rich("why", { reason: (note.reason ?? t("unknown")).replace(/\.$/, ""), code })}</p>
    </div>
  );
}

/** Workers, their jobs and the crawl queue (PostgreSQL), or the in-process note (SQLite); and how Chromium is confined. */
export async function WorkerOverviewView({ overview, now = new Date() }: { overview: WorkerOverview; now?: Date }) {
  const t = await getTranslations("workers");
  const code = (chunks: React.ReactNode) => <code>{chunks}</code>;
  if (overview.dialect === "sqlite") {
    return (
      <>
        <BrowserSandbox note={overview.browser} dialect={overview.dialect} />
        <div className="panel" data-testid="workers-sqlite">
          <p>{t.rich("sqlite", { code })}</p>
        </div>
        <h2>{t("crawlingNow")}</h2>
        {overview.running.length === 0 ? (
          <div className="panel empty">{t("noCrawl")}</div>
        ) : (
          <ul className="panel">
            {overview.running.map((r) => (
              <li key={r.runId}>
                <Link href={`/runs/${r.runId}`}>#{r.runId}</Link> {t.rich("since", { name: r.accountName, time: () => <Time date={r.startedAt} /> })}
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }
  const { workers, queue, recentJobs } = overview;
  const alive = workers.filter((w) => w.status === "running");
  return (
    <>
      <BrowserSandbox note={overview.browser} dialect={overview.dialect} />
      <div className="stats" data-testid="queue-stats">
        <div className="stat">
          <b data-testid="workers-alive">{alive.length}</b>
          {t("stats.alive", { slots: alive.reduce((n, w) => n + w.concurrency, 0) })}
        </div>
        <div className="stat">
          <b data-testid="queue-waiting">{queue.waiting}</b>
          {t("stats.waiting")}
          {queue.retry ? t("stats.retry", { count: queue.retry }) : null}
        </div>
        <div className="stat">
          <b data-testid="queue-active">{queue.active}</b>
          {t("stats.running")}
        </div>
        <div className="stat">
          <b>{queue.completedLastHour}</b>
          {t("stats.done")}
          {queue.failedLastHour ? t("stats.failed", { count: queue.failedLastHour }) : null}
        </div>
      </div>
      {!overview.queueInstalled && <div className="panel empty">{t("queueMissing")}</div>}
      <h2>{t("workers")}</h2>
      {workers.length === 0 ? (
        <div className="panel empty">{t.rich("noWorker", { code })}</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="worker-table">
            <thead>
              <tr>
                <th>{t("table.worker")}</th>
                <th>{t("table.host")}</th>
                <th>{t("table.status")}</th>
                <th>{t("table.started")}</th>
                <th>{t("table.heartbeat")}</th>
                <th className="num">{t("table.slots")}</th>
                <th className="num">{t("table.jobsDone")}</th>
                <th>{t("table.crawlingNow")}</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.id} data-status={w.status}>
                  <td>
                    <code title={w.id}>{w.id.slice(0, 8)}</code>
                  </td>
                  <td>
                    {w.hostname} <span className="muted">{t("table.pid", { pid: String(w.pid) })}</span>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_CLASS[w.status] ?? ""}`}>{t("status", { status: w.status })}</span>
                  </td>
                  <td>
                    <Time date={w.startedAt} />
                  </td>
                  <td>{w.stoppedAt ? <Time date={w.stoppedAt} /> : <RelativeTime date={w.heartbeatAt} now={now} />}</td>
                  <td className="num">{w.concurrency}</td>
                  <td className="num">{w.jobsDone}</td>
                  <td>
                    {w.jobs.length === 0 ? (
                      <span className="muted">{t("table.idle")}</span>
                    ) : (
                      w.jobs.map((j) => (
                        <div key={j.jobId}>
                          <Link href={`/accounts/${j.accountId}`}>{j.accountName}</Link>{" "}
                          <span className="muted">{t.rich("table.since", { time: () => <RelativeTime date={j.startedAt} now={now} /> })}</span>
                        </div>
                      ))
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>{t("recentJobs")}</h2>
      {recentJobs.length === 0 ? (
        <div className="panel empty">{t("noJob")}</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="job-table">
            <thead>
              <tr>
                <th>{t("jobs.account")}</th>
                <th>{t("jobs.state")}</th>
                <th className="num">{t("jobs.retries")}</th>
                <th>{t("jobs.queued")}</th>
                <th>{t("jobs.started")}</th>
                <th>{t("jobs.finished")}</th>
              </tr>
            </thead>
            <tbody>
              {recentJobs.map((j) => (
                <tr key={j.id}>
                  <td>
                    <Link href={`/accounts/${j.accountId}`}>{j.accountName}</Link>
                  </td>
                  <td>
                    <span className={`badge ${JOB_CLASS[j.state] ?? ""}`}>{t("jobState", { state: j.state })}</span>
                  </td>
                  <td className="num">{j.retryCount}</td>
                  <td>
                    <Time date={j.createdOn} />
                  </td>
                  <td>
                    <Time date={j.startedOn} />
                  </td>
                  <td>
                    <Time date={j.completedOn} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
