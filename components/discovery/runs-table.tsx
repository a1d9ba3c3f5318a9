import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { isStale, listDiscoveryRuns } from "@/server/discovery";
import { Time } from "@/components/time";
import { HarvestPercent, StatusBadge } from "./status";
import { WatchRun } from "./watch";

/** Every discovery run with its progress and harvest rate; watches itself while any run is running. */
export async function DiscoveryRunsTable() {
  const [runs, t] = await Promise.all([listDiscoveryRuns(db), getTranslations("discovery.table")]);
  if (runs.length === 0) return <div className="panel empty">{t("empty")}</div>;
  // A server component renders once per request: reading the clock here is what "now" means.
  // eslint-disable-next-line react-hooks/purity -- server component, never re-rendered on the client
  const now = Date.now();
  const active = runs.some((r) => (r.status === "running" || r.status === "queued") && !isStale(r, now));
  return (
    <>
      <WatchRun active={active} />
      <div className="table-wrap">
        <table className="data" data-testid="discovery-runs">
          <thead>
            <tr>
              <th>#</th>
              <th>{t("topic")}</th>
              <th>{t("seeds")}</th>
              <th>{t("strategy")}</th>
              <th>{t("status")}</th>
              <th className="num">{t("crawled")}</th>
              <th className="num">{t("relevant")}</th>
              <th className="num">{t("harvestRate")}</th>
              <th className="num">{t("candidates")}</th>
              <th>{t("started")}</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/discovery/${r.id}`}>#{r.id}</Link>
                </td>
                <td>{r.topic.name}</td>
                <td>{r.seedSet ? <Link href={`/seeds/${r.seedSet.id}`}>{r.seedSet.name}</Link> : <span className="muted">{t("file")}</span>}</td>
                <td>{r.strategy}</td>
                <td>
                  <StatusBadge status={r.status} stale={isStale(r, now)} /> {r.note && <span className="muted small">{r.note}</span>}
                </td>
                <td className="num">
                  {r.crawled} / {r.maxPages}
                </td>
                <td className="num">{r.relevant}</td>
                <td className="num">
                  <HarvestPercent relevant={r.relevant} crawled={r.crawled} />
                </td>
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
