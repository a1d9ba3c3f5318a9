import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { dropReasons, getDiscoveryRun, harvestCurves, isStale, nextInFrontier, recentPages } from "@/server/discovery";
import { comparisonRunIds } from "@/server/discovery-compare";
import { effectiveFocusedOptions, harvestReport, parseDiscoveryOptions, toHarvestChart, type DiscoveryOptions } from "@/crawler/discover";
import { PageHeader } from "@/components/page-header";
import { Time } from "@/components/time";
import { CandidatesTable } from "./candidates";
import { DiscoveryHarvestChart } from "./harvest-chart";
import { RunControls } from "./run-controls";
import { HarvestPercent, StatusBadge } from "./status";
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
  const [run, t, format] = await Promise.all([getDiscoveryRun(db, id), getTranslations("discovery.detail"), getFormatter()]);
  if (!run) notFound();
  // The run's curve beside the latest run of each other strategy on the same topic.
  const compare = await comparisonRunIds(db, run);
  const curves = await harvestCurves(db, compare);
  const own = curves.find((c) => c.key.startsWith(`#${run.id} `));
  const [next, recent, reasons] = await Promise.all([nextInFrontier(db, id), recentPages(db, id), dropReasons(db, id)]);
  const stale = isStale(run);
  // Queued: a worker takes it within seconds, so the page keeps watching.
  const live = (run.status === "running" || run.status === "queued") && !stale;
  const options = optionsOf(run.options);
  const focused = options ? effectiveFocusedOptions(options.focused) : null;
  const progress = Math.min(1, run.crawled / Math.max(1, run.maxPages));
  return (
    <>
      <PageHeader
        title={t("title", { id: run.id })}
        subtitle={t.rich("subtitle", {
          topic: run.topic.name,
          untrained: run.topic.modelVersion > 0 ? "false" : "true",
          strategy: run.strategy,
          b: (chunks) => <b>{chunks}</b>,
          seeds: () => (run.seedSet ? <Link href={`/seeds/${run.seedSet.id}`}>{run.seedSet.name}</Link> : t("fromFile")),
          started: () => <Time date={run.createdAt} />,
        })}
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
          {t("pagesCrawled")}
          <progress value={progress} max={1} style={{ width: "100%" }} aria-label={t("progress")} />
        </div>
        <div className="stat">
          <b>{run.relevant}</b>
          {t("relevantPages")}
        </div>
        <div className="stat">
          <b>
            <HarvestPercent relevant={run.relevant} crawled={run.crawled} />
          </b>
          {t("harvestRate")}
        </div>
        <div className="stat">
          <b>{run.frontier.todo}</b>
          {t("toCrawl")}
        </div>
        <div className="stat">
          <b>{run.frontier.irrelevant}</b>
          {t("irrelevant")}
        </div>
        <div className="stat">
          <b>{run.frontier.done}</b>
          {t("done")}
        </div>
      </div>

      <section className="panel chart-panel" aria-labelledby="curve-h">
        <h2 id="curve-h">{t("curve")}</h2>
        <p className="muted small">{t("curveNote", { others: curves.length > 1 ? "true" : "false" })}</p>
        <DiscoveryHarvestChart rows={toHarvestChart(curves)} keys={curves.map((c) => c.key)} />
        {own && own.points.length > 0 && (
          <table className="data compact">
            <thead>
              <tr>
                <th className="num">{t("pages")}</th>
                <th className="num">{t("relevant")}</th>
                <th className="num">{t("curve")}</th>
              </tr>
            </thead>
            <tbody>
              {harvestReport(own.points).map((r) => (
                <tr key={r.pages}>
                  <td className="num">{r.pages}</td>
                  <td className="num">{r.relevant}</td>
                  <td className="num">{format.number(r.rate, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <div className="two-col">
        <section className="panel" aria-labelledby="next-h">
          <h2 id="next-h">{t("next")}</h2>
          {next.length === 0 ? (
            <p className="muted small">{t("nothingLeft")}</p>
          ) : (
            <table className="data compact">
              <thead>
                <tr>
                  <th className="num">{t("priority")}</th>
                  <th className="num">{t("layer")}</th>
                  <th>{t("link")}</th>
                </tr>
              </thead>
              <tbody>
                {next.map((n) => (
                  <tr key={n.url}>
                    <td className="num">{format.number(n.priority, { minimumFractionDigits: 3, maximumFractionDigits: 3 })}</td>
                    <td className="num">{n.layer}</td>
                    <td>
                      {n.anchor || <span className="muted">{t("noAnchor")}</span>}
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
          <h2 id="why-h">{t("why")}</h2>
          {reasons.length === 0 ? (
            <p className="muted small">{t("noDrop")}</p>
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
              {t("blockRules", {
                anchorBytes: focused.blocks.minAvgAnchorBytes ?? "",
                titleWords: focused.blocks.minTitleWords ?? "",
                titleRuleOn: String(focused.blocks.titleRuleOn),
                onSite: focused.blocks.minOnSiteRatio ?? "",
                blockThreshold: focused.blockThreshold,
                linkThreshold: focused.linkThreshold,
                body: focused.weights.body,
                anchor: focused.weights.anchor,
                url: focused.weights.url,
                budget: focused.budget ? "true" : "false",
              })}
            </p>
          )}
          {options && (
            <p className="muted small">
              {t("hostDelay", {
                ms: options.hostDelayMs,
                sameSite: options.sameSite ? "true" : "false",
                work: options.workMs > 0 ? "true" : "false",
                workMin: Math.round(options.workMs / 60_000),
                pauseMin: Math.round(options.pauseMs / 60_000),
              })}
            </p>
          )}
        </section>
      </div>

      <section className="panel" aria-labelledby="recent-h">
        <h2 id="recent-h">{t("recent")}</h2>
        {recent.length === 0 ? (
          <p className="muted small">{t("noPage")}</p>
        ) : (
          <table className="data compact">
            <thead>
              <tr>
                <th>{t("page")}</th>
                <th>{t("type")}</th>
                <th className="num">{t("score")}</th>
                <th>{t("relevantCol")}</th>
                <th className="num">{t("layer")}</th>
                <th>{t("when")}</th>
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
                  <td className="num">{p.relevance === null ? "—" : format.number(p.relevance, { minimumFractionDigits: 3, maximumFractionDigits: 3 })}</td>
                  <td>{p.relevant ? <span className="badge ok">{t("yes")}</span> : <span className="badge">{t("no")}</span>}</td>
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
        <h2 id="cand-h">{t("candidates")}</h2>
        <CandidatesTable runId={run.id} canAdopt={canAdopt} />
      </section>
    </>
  );
}
