import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { PLATFORMS } from "@/lib/platforms";
import {
  accountActivity,
  bucketFor,
  crawlHealthSeries,
  flagRateByTopic,
  harvestCurves,
  isEmptySeries,
  toStackedSeries,
  topTermCounts,
} from "@/lib/charts/series";
import { downsampleLine, mergeBuckets } from "@/lib/downsample";
import { activityPerAccount, deletionsPerDay, flagsByTopic, flagsPerDay, harvestRuns, postsPerDay, runsPerDay, weekFlagTerms } from "@/server/charts";
import { PlatformDailyChart } from "./daily-chart";
import { TopicRateChart } from "./topic-rate-chart";
import { TermsChart } from "./terms-chart";
import { HealthChart } from "./health-chart";
import { ActivityChart } from "./activity-chart";
import { HarvestChart } from "./harvest-chart";

/** Every platform's series, in the registry's order. */
export const PLATFORM_KEYS: string[] = [...PLATFORMS];
/**
 * Points per series sent to the browser: a chart panel is about 500 pixels wide, so more cannot
 * be seen, only paid for (JSON in the page, SVG to build). Bars are merged (sums kept), lines keep
 * each slice's lowest and highest point.
 */
const MAX_POINTS = 200;

/** Stacked bars per key (by default per platform) for `days`, daily or weekly, at most {@link MAX_POINTS} of them. */
export function stackedBars(rows: readonly { day: string; key: string; n: number }[], days: string[], keys: string[] = PLATFORM_KEYS) {
  return mergeBuckets(toStackedSeries(rows, days, keys, bucketFor(days.length)), MAX_POINTS, keys);
}

function ChartPanel({ id, title, sub, children, testId }: { id: string; title: string; sub: string; children: React.ReactNode; testId: string }) {
  return (
    <section className="panel chart-panel" id={id} aria-labelledby={`${id}-h`} data-testid={testId}>
      <h2 id={`${id}-h`}>{title}</h2>
      <p className="chart-sub">{sub}</p>
      {children}
    </section>
  );
}

/** A chart's "nothing in this range" in the chart's place. */
export function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="chart-empty" data-testid="chart-empty">
      <div>{children}</div>
    </div>
  );
}

/** The texts of the charts page, with numbers in the reader's format. */
export async function texts() {
  const [t, format] = await Promise.all([getTranslations("charts"), getFormatter()]);
  return {
    t,
    n: (x: number) => format.number(x),
    pct: (x: number) => format.number(Math.round(x * 100) / 100, { style: "percent" }),
    per: (days: number) => t("per", { bucket: bucketFor(days) }),
  };
}
/** The sum of `keys` over every point of a series. */
export const total = (xs: { [k: string]: unknown }[], keys: string[]) => xs.reduce((s, p) => s + keys.reduce((t, k) => t + (Number(p[k]) || 0), 0), 0);

export async function PostsSection({ days }: { days: string[] }) {
  const rows = await postsPerDay(db, days[0]!);
  const data = stackedBars(rows, days);
  const { t, n, per } = await texts();
  return (
    <ChartPanel
      id="posts-per-day"
      testId="chart-posts"
      title={t("posts.title")}
      sub={t("posts.sub", { per: per(days.length), total: n(total(data, PLATFORM_KEYS)) })}
    >
      {isEmptySeries(data, PLATFORM_KEYS) ? <Empty>{t("posts.empty")}</Empty> : <PlatformDailyChart data={data} keys={PLATFORM_KEYS} kind="bar" />}
    </ChartPanel>
  );
}

export async function FlagsSection({ days }: { days: string[] }) {
  const rows = await flagsPerDay(db, days[0]!);
  const data = stackedBars(rows, days);
  const { t, n, per } = await texts();
  return (
    <ChartPanel
      id="flags-per-day"
      testId="chart-flags"
      title={t("flags.title")}
      sub={t("flags.sub", { per: per(days.length), total: n(total(data, PLATFORM_KEYS)) })}
    >
      {isEmptySeries(data, PLATFORM_KEYS) ? <Empty>{t("flags.empty")}</Empty> : <PlatformDailyChart data={data} keys={PLATFORM_KEYS} kind="bar" />}
    </ChartPanel>
  );
}

/** Deleted posts and replies by the day the crawler noticed them, per platform, and how many were flagged. */
export async function DeletionsSection({ days }: { days: string[] }) {
  const { rows, total: deleted, flagged } = await deletionsPerDay(db, days[0]!);
  const data = stackedBars(rows, days);
  const { t, n, per } = await texts();
  return (
    <ChartPanel
      id="deletions-per-day"
      testId="chart-deletions"
      title={t("deletions.title")}
      sub={t("deletions.sub", { per: per(days.length), total: n(deleted), flagged: n(flagged) })}
    >
      {isEmptySeries(data, PLATFORM_KEYS) ? <Empty>{t("deletions.empty")}</Empty> : <PlatformDailyChart data={data} keys={PLATFORM_KEYS} kind="bar" />}
      {flagged > 0 && (
        <p className="small">
          <Link href="/?deleted=yes">{t("deletions.flaggedLink", { flagged: n(flagged) })}</Link>
        </p>
      )}
    </ChartPanel>
  );
}

export async function TopicRateSection({ days }: { days: string[] }) {
  const { rows, topics, posts } = await flagsByTopic(db, days[0]!);
  const data = flagRateByTopic(rows, topics, posts);
  const { t, n, pct } = await texts();
  return (
    <ChartPanel id="flag-rate" testId="chart-topic-rate" title={t("rate.title")} sub={t("rate.sub")}>
      {topics.length === 0 ? (
        <Empty>{t("rate.noTopics")}</Empty>
      ) : data.every((d) => d.total === 0) ? (
        <Empty>{t("rate.noFlags")}</Empty>
      ) : (
        <>
          <TopicRateChart data={data} />
          <table className="data compact" data-testid="topic-rate-table">
            <thead>
              <tr>
                <th>{t("rate.topic")}</th>
                <th className="num">{t("rate.unreviewed")}</th>
                <th className="num">{t("rate.confirmed")}</th>
                <th className="num">{t("rate.dismissed")}</th>
                <th className="num">{t("rate.perThousand")}</th>
                <th className="num" title={t("rate.confirmedShareTitle")}>
                  {t("rate.confirmedShare")}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.topicId}>
                  <td>{d.topic}</td>
                  <td className="num">{n(d.open)}</td>
                  <td className="num">{n(d.confirmed)}</td>
                  <td className="num">{n(d.dismissed)}</td>
                  <td className="num">{d.perThousand}</td>
                  <td className="num">{d.precision === null ? "—" : pct(d.precision)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </ChartPanel>
  );
}

export async function TermsSection() {
  const rows = await weekFlagTerms(db);
  const data = topTermCounts(rows, 15);
  const { t, n } = await texts();
  return (
    <ChartPanel id="top-terms" testId="chart-terms" title={t("terms.title")} sub={t("terms.sub", { count: n(rows.length) })}>
      {data.length === 0 ? <Empty>{t("terms.empty")}</Empty> : <TermsChart data={data} />}
    </ChartPanel>
  );
}

export async function HealthSection({ days }: { days: string[] }) {
  const rows = await runsPerDay(db, days[0]!);
  const data = crawlHealthSeries(rows, days, bucketFor(days.length));
  const sum = (k: "runs" | "errors" | "blocks" | "failed") => data.reduce((s, p) => s + p[k], 0);
  const { t, n, per } = await texts();
  return (
    <ChartPanel
      id="crawl-health"
      testId="chart-health"
      title={t("health.title")}
      sub={t("health.sub", { runs: n(sum("runs")), failed: n(sum("failed")), errors: n(sum("errors")), blocks: n(sum("blocks")), per: per(days.length) })}
    >
      {sum("runs") === 0 ? <Empty>{t("health.empty")}</Empty> : <HealthChart data={data} />}
    </ChartPanel>
  );
}

export async function ActivitySection({ days }: { days: string[] }) {
  const { posts, flags, accounts } = await activityPerAccount(db, days[0]!);
  const data = accountActivity(posts, flags, accounts, 15);
  const { t, n } = await texts();
  return (
    <ChartPanel
      id="account-activity"
      testId="chart-accounts"
      title={t("activity.title")}
      sub={t("activity.sub", { shown: n(Math.min(15, accounts.length)), total: n(accounts.length) })}
    >
      {accounts.length === 0 ? (
        <Empty>{t("activity.noAccounts")}</Empty>
      ) : data.every((d) => d.posts + d.replies === 0) ? (
        <Empty>{t("activity.noPosts")}</Empty>
      ) : (
        <ActivityChart data={data} />
      )}
    </ChartPanel>
  );
}

export async function HarvestSection() {
  const { runs, points } = await harvestRuns(db);
  const curves = harvestCurves(
    points,
    runs.map((r) => ({ id: r.id, name: `#${r.id} ${r.strategy} · ${r.topic.name} (${r.relevant}/${r.crawled})` })),
    Number.POSITIVE_INFINITY,
  ).map((c) => ({ ...c, points: downsampleLine(c.points, MAX_POINTS, (p) => p.rate) }));
  const { t } = await texts();
  return (
    <ChartPanel id="harvest" testId="chart-harvest" title={t("harvest.title")} sub={t("harvest.sub")}>
      {curves.length === 0 ? <Empty>{t("harvest.empty")}</Empty> : <HarvestChart curves={curves} />}
    </ChartPanel>
  );
}
