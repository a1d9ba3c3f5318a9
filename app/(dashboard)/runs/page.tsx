import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { listRuns } from "@/lib/queries/overview";
import { formatTime } from "@/lib/format";
import { PlatformBadge } from "@/components/platform-badge";

export const metadata = { title: "Crawl runs" };
export const dynamic = "force-dynamic";

const STATUS_CLASS: Record<string, string> = { ok: "ok", running: "info", partial: "warn", failed: "danger", skipped: "" };

export default async function RunsPage() {
  await requireUser();
  const runs = await listRuns(db);
  return (
    <>
      <h1>Crawl runs</h1>
      {runs.length === 0 ? (
        <div className="panel empty">No crawl runs yet.</div>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>#</th><th>Account</th><th>Started</th><th>Status</th><th className="num">List pages</th><th className="num">Item pages</th>
              <th className="num">New</th><th className="num">Changed</th><th className="num">Unchanged</th><th className="num">Blocks</th><th className="num">Errors</th><th className="num">Seconds</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td><PlatformBadge platform={r.account.platform} /> {r.account.name}</td>
                <td>{formatTime(r.startedAt)}</td>
                <td><span className={`badge ${STATUS_CLASS[r.status] ?? ""}`}>{r.status}</span></td>
                <td className="num">{r.pagesList}</td>
                <td className="num">{r.pagesItem}</td>
                <td className="num">{r.newPosts}</td>
                <td className="num">{r.changedPosts}</td>
                <td className="num">{r.unchangedPosts}</td>
                <td className="num">{r.blocks}</td>
                <td className="num">{r.errorCount}</td>
                <td className="num">{r.finishedAt ? ((r.finishedAt.getTime() - r.startedAt.getTime()) / 1000).toFixed(1) : "…"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
