import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { dropReasons, getDiscoveryRun, harvestCurves, isStale, nextInFrontier, recentPages } from "@/lib/queries/discovery";
import { effectiveFocusedOptions, parseDiscoveryOptions, type DiscoveryOptions } from "@/crawler/discover/options";
import { harvestReport, toHarvestChart } from "@/crawler/discover/metrics";
import { PageHeader } from "@/components/page-header";
import { Time } from "@/components/time";
import { CandidatesTable } from "./candidates";
import { DiscoveryHarvestChart } from "./harvest-chart";
import { RunControls } from "./run-controls";
import { harvestPercent, StatusBadge } from "./status";
import { WatchRun } from "./watch";

function optionsOf(json: string): DiscoveryOptions | null {
  try {
    return parseDiscoveryOptions(json);
  } catch {
    return null;
  }
}

/** One discovery run: progress, controls, harvest curve, frontier, recent pages, drop reasons, candidates. */
export async function DiscoveryRunDetail({ id, canRun, canAdopt }: { id: number; canRun: boolean; canAdopt: boolean }) {
  const run = await getDiscoveryRun(db, id);
  if (!run) notFound();
  // The run's curve beside the latest run of each other strategy on the same topic.
  const others = await db.discoveryRun.findMany({
    where: { topicId: run.topicId, id: { not: run.id }, crawled: { gt: 0 } },
    orderBy: { id: "desc" },
    select: { id: true, strategy: true },
  });
  const compare = [run.id];
  const strategies = new Set([run.strategy]);
  for (const o of others) {
    if (strategies.has(o.strategy)) continue;
    strategies.add(o.strategy);
    compare.push(o.id);
  }
  const curves = await harvestCurves(db, compare);
  const own = curves.find((c) => c.key.startsWith(`#${run.id} `));
  const [next, recent, reasons] = await Promise.all([nextInFrontier(db, id), recentPages(db, id), dropReasons(db, id)]);
  const stale = isStale(run);
  const live = run.status === "running" && !stale;
  const options = optionsOf(run.options);
  const focused = options ? effectiveFocusedOptions(options.focused) : null;
  const progress = Math.min(1, run.crawled / Math.max(1, run.maxPages));
  return (
    <>
      <PageHeader
        title={`Discovery #${run.id}`}
        subtitle={
          <>
            topic <b>{run.topic.name}</b>
            {run.topic.modelVersion > 0 ? "" : " (untrained: keyword cosine)"} · {run.strategy} · seeds{" "}
            {run.seedSet ? <Link href={`/seeds/${run.seedSet.id}`}>{run.seedSet.name}</Link> : "from a file"} · started <Time date={run.createdAt} />
          </>
        }
      >
        {canRun && <RunControls runId={run.id} status={run.status} stale={stale} finished={run.crawled >= run.maxPages} />}
      </PageHeader>
      <p>
        <StatusBadge status={run.status} stale={stale} /> {run.note && <span className="muted">{run.note}</span>} <WatchRun active={live} />
      </p>
      <div className="stats">
        <div className="stat">
          <b>
            {run.crawled} / {run.maxPages}
          </b>
          pages crawled
          <progress value={progress} max={1} style={{ width: "100%" }} aria-label="progress" />
        </div>
        <div className="stat">
          <b>{run.relevant}</b>relevant pages
        </div>
        <div className="stat">
          <b>{harvestPercent(run.relevant, run.crawled)}</b>harvest rate
        </div>
        <div className="stat">
          <b>{run.frontier.todo}</b>URLs to crawl
        </div>
        <div className="stat">
          <b>{run.frontier.irrelevant}</b>irrelevant URLs
        </div>
        <div className="stat">
          <b>{run.frontier.done}</b>done
        </div>
      </div>

      <section className="panel chart-panel" aria-labelledby="curve-h">
        <h2 id="curve-h">Harvest rate</h2>
        <p className="muted small">Relevant ÷ crawled after every page{curves.length > 1 ? ", beside the latest run of each other strategy on this topic" : ""}.</p>
        <DiscoveryHarvestChart rows={toHarvestChart(curves)} keys={curves.map((c) => c.key)} />
        {own && own.points.length > 0 && (
          <table className="data compact">
            <thead>
              <tr>
                <th className="num">Pages</th>
                <th className="num">Relevant</th>
                <th className="num">Harvest rate</th>
              </tr>
            </thead>
            <tbody>
              {harvestReport(own.points).map((r) => (
                <tr key={r.pages}>
                  <td className="num">{r.pages}</td>
                  <td className="num">{r.relevant}</td>
                  <td className="num">{(r.rate * 100).toFixed(1)}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <div className="two-col">
        <section className="panel" aria-labelledby="next-h">
          <h2 id="next-h">Next in the frontier</h2>
          {next.length === 0 ? (
            <p className="muted small">Nothing left to crawl.</p>
          ) : (
            <table className="data compact">
              <thead>
                <tr>
                  <th className="num">Priority</th>
                  <th className="num">Layer</th>
                  <th>Link</th>
                </tr>
              </thead>
              <tbody>
                {next.map((n) => (
                  <tr key={n.url}>
                    <td className="num">{n.priority.toFixed(3)}</td>
                    <td className="num">{n.layer}</td>
                    <td>
                      {n.anchor || <span className="muted">(no anchor text)</span>}
                      <div className="muted small">
                        <code>{n.url}</code>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section className="panel" aria-labelledby="why-h">
          <h2 id="why-h">Why URLs are irrelevant</h2>
          {reasons.length === 0 ? (
            <p className="muted small">No link dropped yet.</p>
          ) : (
            <table className="data compact">
              <tbody>
                {reasons.map((r) => (
                  <tr key={r.reason}>
                    <td>{r.reason}</td>
                    <td className="num">{r.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {focused && run.strategy === "focused" && (
            <p className="muted small">
              Block rules: anchors ≥ {focused.blocks.minAvgAnchorBytes} bytes, ≥ {focused.blocks.minTitleWords} title word (on {focused.blocks.titleRuleOn} pages), on-site ≥{" "}
              {focused.blocks.minOnSiteRatio}; block classifier ≥ {focused.blockThreshold}; link R ≥ {focused.linkThreshold} with weights body {focused.weights.body}, anchor{" "}
              {focused.weights.anchor}, URL {focused.weights.url}; 255/L budget {focused.budget ? "on" : "off"}.
            </p>
          )}
          {options && (
            <p className="muted small">
              Host delay {options.hostDelayMs} ms{options.sameSite ? " · same site only" : ""}
              {options.workMs > 0 ? ` · work ${Math.round(options.workMs / 60_000)} min, pause ${Math.round(options.pauseMs / 60_000)} min` : ""}.
            </p>
          )}
        </section>
      </div>

      <section className="panel" aria-labelledby="recent-h">
        <h2 id="recent-h">Recently crawled</h2>
        {recent.length === 0 ? (
          <p className="muted small">No page crawled yet.</p>
        ) : (
          <table className="data compact">
            <thead>
              <tr>
                <th>Page</th>
                <th>Type</th>
                <th className="num">Score</th>
                <th>Relevant</th>
                <th className="num">Layer</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((p) => (
                <tr key={p.url}>
                  <td>
                    <code>{p.url}</code>
                    {p.state === "irrelevant" && p.reason && <div className="muted small">{p.reason}</div>}
                  </td>
                  <td>{p.pageType ?? "—"}</td>
                  <td className="num">{p.relevance === null ? "—" : p.relevance.toFixed(3)}</td>
                  <td>{p.relevant ? <span className="badge ok">yes</span> : <span className="badge">no</span>}</td>
                  <td className="num">{p.layer}</td>
                  <td>
                    <Time date={p.fetchedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="cand-h">
        <h2 id="cand-h">Candidate accounts</h2>
        <CandidatesTable runId={run.id} canAdopt={canAdopt} />
      </section>
    </>
  );
}
