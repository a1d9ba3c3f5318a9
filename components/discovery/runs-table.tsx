import Link from "next/link";
import { db } from "@/lib/db";
import { isStale, listDiscoveryRuns } from "@/lib/queries/discovery";
import { Time } from "@/components/time";
import { harvestPercent, StatusBadge } from "./status";
import { WatchRun } from "./watch";

/** Every discovery run with its progress and harvest rate; watches itself while any run is running. */
export async function DiscoveryRunsTable() {
  const runs = await listDiscoveryRuns(db);
  if (runs.length === 0) return <div className="panel empty">No discovery runs yet. Start one above, or with `campuswatch discover`.</div>;
  const now = Date.now();
  const active = runs.some((r) => r.status === "running" && !isStale(r, now));
  return (
    <>
      <WatchRun active={active} />
      <div className="table-wrap">
        <table className="data" data-testid="discovery-runs">
          <thead>
            <tr>
              <th>#</th>
              <th>Topic</th>
              <th>Seeds</th>
              <th>Strategy</th>
              <th>Status</th>
              <th className="num">Crawled</th>
              <th className="num">Relevant</th>
              <th className="num">Harvest rate</th>
              <th className="num">Candidates</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/discovery/${r.id}`}>#{r.id}</Link>
                </td>
                <td>{r.topic.name}</td>
                <td>{r.seedSet ? <Link href={`/seeds/${r.seedSet.id}`}>{r.seedSet.name}</Link> : <span className="muted">file</span>}</td>
                <td>{r.strategy}</td>
                <td>
                  <StatusBadge status={r.status} stale={isStale(r, now)} /> {r.note && <span className="muted small">{r.note}</span>}
                </td>
                <td className="num">
                  {r.crawled} / {r.maxPages}
                </td>
                <td className="num">{r.relevant}</td>
                <td className="num">{harvestPercent(r.relevant, r.crawled)}</td>
                <td className="num">{r._count.candidates}</td>
                <td>
                  <Time date={r.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
