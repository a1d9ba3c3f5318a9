import Link from "next/link";
import { db } from "@/lib/db";
import { listRunsPage, type RunFilter } from "@/lib/queries/runs";
import { PlatformBadge } from "../platform-badge";
import { Time } from "../time";

export const RUN_CLASS: Record<string, string> = { ok: "ok", running: "info", partial: "warn", failed: "danger", skipped: "" };

/** Crawl runs, newest first, with a link to older ones. */
export async function RunTable({ filter, take = 50, hideAccount = false }: { filter: RunFilter; take?: number; hideAccount?: boolean }) {
  const { rows, next } = await listRunsPage(db, filter, take);
  if (rows.length === 0) return <div className="panel empty">No crawl runs{filter.status || filter.account ? " match" : " yet"}.</div>;
  const older = new URLSearchParams();
  if (filter.account) older.set("account", String(filter.account));
  if (filter.status) older.set("status", filter.status);
  if (next) older.set("before", String(next));
  return (
    <>
      <div className="table-wrap">
        <table className="data" data-testid="run-table">
          <thead>
            <tr>
              <th>#</th>
              {!hideAccount && <th>Account</th>}
              <th>Started</th>
              <th>Trigger</th>
              <th>Status</th>
              <th className="num">List pages</th>
              <th className="num">Item pages</th>
              <th className="num">New</th>
              <th className="num">Changed</th>
              <th className="num">Unchanged</th>
              <th className="num">Blocks</th>
              <th className="num">Errors</th>
              <th className="num">Duration</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/runs/${r.id}`}>#{r.id}</Link>
                </td>
                {!hideAccount && (
                  <td className="nowrap">
                    <PlatformBadge platform={r.account.platform} short /> <Link href={`/accounts/${r.account.id}`}>{r.account.name}</Link>
                  </td>
                )}
                <td className="nowrap">
                  <Time date={r.startedAt} />
                </td>
                <td>{r.trigger}</td>
                <td>
                  <span className={`badge ${RUN_CLASS[r.status] ?? ""}`}>{r.status}</span>
                </td>
                <td className="num">{r.pagesList}</td>
                <td className="num">{r.pagesItem}</td>
                <td className="num">{r.newPosts}</td>
                <td className="num">{r.changedPosts}</td>
                <td className="num">{r.unchangedPosts}</td>
                <td className={`num${r.blocks ? " error-count" : ""}`}>{r.blocks}</td>
                <td className={`num${r.errorCount ? " error-count" : ""}`}>{r.errorCount}</td>
                <td className="num">{r.finishedAt ? `${((r.finishedAt.getTime() - r.startedAt.getTime()) / 1000).toFixed(1)} s` : "…"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next && (
        <nav className="pager" aria-label="Pages">
          <span />
          <Link href={`/runs?${older}`}>Older runs →</Link>
        </nav>
      )}
    </>
  );
}
