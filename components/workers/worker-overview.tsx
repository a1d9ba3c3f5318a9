import Link from "next/link";
import type { BrowserSandboxNote } from "@/lib/browser-sandbox";
import type { WorkerOverview } from "@/lib/queries/workers";
import { RelativeTime, Time } from "../time";

const STATUS_CLASS: Record<string, string> = { running: "ok", stale: "warn", dead: "danger", stopped: "" };
const JOB_CLASS: Record<string, string> = { completed: "ok", active: "info", created: "", retry: "warn", failed: "danger", cancelled: "" };

/**
 * How the crawler's Chromium is confined on this machine. A browser without its sandbox is said
 * plainly (crawled pages run scripts); a sandboxed one in one quiet line.
 */
function BrowserSandbox({ note, dialect }: { note: BrowserSandboxNote | null; dialect: WorkerOverview["dialect"] }) {
  if (!note) return null;
  const where = (
    <>
      {note.hostname} <span className="muted">pid {note.pid}</span>, as user <code>{note.user}</code> (uid {note.uid}), since <Time date={new Date(note.at)} />
    </>
  );
  // Only this machine's crawling processes write the note; say so where workers may run elsewhere.
  const elsewhere = dialect === "postgresql" ? " Workers on other machines report theirs in their own log." : "";
  if (note.sandbox) {
    return (
      <p className="muted" data-testid="browser-sandbox" data-sandbox="yes">
        Chromium runs with its sandbox on {where}.{elsewhere}
      </p>
    );
  }
  return (
    <div className="panel" role="status" data-testid="browser-sandbox" data-sandbox="no">
      <p>
        <span className="badge warn">no sandbox</span> Chromium runs <b>without its sandbox</b> (<code>--no-sandbox</code>) on {where}: crawled pages&apos;
        scripts are confined only by that user&apos;s rights.{elsewhere}
      </p>
      <p className="muted">
        Why: {(note.reason ?? "unknown").replace(/\.$/, "")}. Chromium&apos;s sandbox needs unprivileged user namespaces (<code>/proc/sys/user/max_user_namespaces</code> above 0, and
        not restricted by AppArmor) or Debian&apos;s <code>chromium-sandbox</code> package; see &ldquo;How the browser is confined&rdquo; in the README.
      </p>
    </div>
  );
}

/** Workers, their jobs and the crawl queue (PostgreSQL), or the in-process note (SQLite); and how Chromium is confined. */
export function WorkerOverviewView({ overview, now = new Date() }: { overview: WorkerOverview; now?: Date }) {
  if (overview.dialect === "sqlite") {
    return (
      <>
        <BrowserSandbox note={overview.browser} dialect={overview.dialect} />
        <div className="panel" data-testid="workers-sqlite">
          <p>
            This installation runs on SQLite: crawls run inside the scheduler process (<code>campuswatch start</code> or <code>npm start</code>), up to{" "}
            <code>CAMPUSWATCH_CONCURRENCY</code> accounts at once. Separate workers on several machines need PostgreSQL; see “Running several workers” in the
            README.
          </p>
        </div>
        <h2>Crawling now</h2>
        {overview.running.length === 0 ? (
          <div className="panel empty">No crawl is running.</div>
        ) : (
          <ul className="panel">
            {overview.running.map((r) => (
              <li key={r.runId}>
                <Link href={`/runs/${r.runId}`}>#{r.runId}</Link> {r.accountName}, since <Time date={r.startedAt} />
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
          workers alive ({alive.reduce((n, w) => n + w.concurrency, 0)} job slots)
        </div>
        <div className="stat">
          <b data-testid="queue-waiting">{queue.waiting}</b>
          jobs waiting{queue.retry ? ` (${queue.retry} to retry)` : ""}
        </div>
        <div className="stat">
          <b data-testid="queue-active">{queue.active}</b>
          jobs running
        </div>
        <div className="stat">
          <b>{queue.completedLastHour}</b>
          done in the last hour{queue.failedLastHour ? `, ${queue.failedLastHour} failed` : ""}
        </div>
      </div>
      {!overview.queueInstalled && <div className="panel empty">The queue is created when the first scheduler or worker starts.</div>}
      <h2>Workers</h2>
      {workers.length === 0 ? (
        <div className="panel empty">
          No worker has run in the last day. Start one with <code>campuswatch worker</code> (same <code>DATABASE_URL</code>).
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="worker-table">
            <thead>
              <tr>
                <th>Worker</th>
                <th>Host</th>
                <th>Status</th>
                <th>Started</th>
                <th>Last heartbeat</th>
                <th className="num">Slots</th>
                <th className="num">Jobs done</th>
                <th>Crawling now</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.id} data-status={w.status}>
                  <td>
                    <code title={w.id}>{w.id.slice(0, 8)}</code>
                  </td>
                  <td>
                    {w.hostname} <span className="muted">pid {w.pid}</span>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_CLASS[w.status] ?? ""}`}>{w.status}</span>
                  </td>
                  <td>
                    <Time date={w.startedAt} />
                  </td>
                  <td>{w.stoppedAt ? <Time date={w.stoppedAt} /> : <RelativeTime date={w.heartbeatAt} now={now} />}</td>
                  <td className="num">{w.concurrency}</td>
                  <td className="num">{w.jobsDone}</td>
                  <td>
                    {w.jobs.length === 0 ? (
                      <span className="muted">idle</span>
                    ) : (
                      w.jobs.map((j) => (
                        <div key={j.jobId}>
                          <Link href={`/accounts/${j.accountId}`}>{j.accountName}</Link> <span className="muted">since <RelativeTime date={j.startedAt} now={now} /></span>
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
      <h2>Recent crawl jobs</h2>
      {recentJobs.length === 0 ? (
        <div className="panel empty">No crawl job yet.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="job-table">
            <thead>
              <tr>
                <th>Account</th>
                <th>State</th>
                <th className="num">Retries</th>
                <th>Queued</th>
                <th>Started</th>
                <th>Finished</th>
              </tr>
            </thead>
            <tbody>
              {recentJobs.map((j) => (
                <tr key={j.id}>
                  <td>
                    <Link href={`/accounts/${j.accountId}`}>{j.accountName}</Link>
                  </td>
                  <td>
                    <span className={`badge ${JOB_CLASS[j.state] ?? ""}`}>{j.state}</span>
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
