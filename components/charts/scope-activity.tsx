import { Suspense } from "react";
import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { isEmptySeries } from "@/lib/charts/series";
import { SCOPE_CHART_RANGES, chartRange, rangeDays, scopeActivity, type ChartScope } from "@/server/charts";
import { PanelSkeleton } from "../skeletons";
import { DailyChart, PlatformDailyChart, type DailySeries } from "./daily-chart";
import { DECISION_COLORS, INCIDENT_COLORS, STATUS_COLORS } from "./colors";
import { RangeTabs } from "./range-tabs";
import { Empty, PLATFORM_KEYS, stackedBars, texts, total } from "./sections";

/** The range an account's or a topic's page shows without `?days=`. */
const DEFAULT_DAYS = 30;
const HEIGHT = 220;

/**
 * An account's or a topic's own charts (issue 33): posts, flags by review status, new incidents
 * and reviews per day over the last 7, 30 or 90 days (`?days=`), read with the charts page's
 * queries narrowed to the scope. Streams in after the rest of the page.
 */
export async function ScopeActivity({ scope, days, basePath }: { scope: ChartScope; days: string | undefined; basePath: string }) {
  const t = await getTranslations("charts.scope");
  const range = chartRange(days, SCOPE_CHART_RANGES, DEFAULT_DAYS);
  const shown = rangeDays(range);
  return (
    <section className="panel" id="activity" aria-labelledby="activity-h" data-testid="scope-charts">
      <div className="scope-charts-head">
        <h2 id="activity-h">{t("title")}</h2>
        <RangeTabs ranges={SCOPE_CHART_RANGES} current={range} href={(r) => `${basePath}?days=${r}#activity`} />
      </div>
      <p className="small muted">{t("sub", { from: shown[0] ?? "", to: shown.at(-1) ?? "" })}</p>
      <Suspense fallback={<PanelSkeleton height={2 * HEIGHT + 120} label={t("loading")} />}>
        <ScopeCharts scope={scope} days={shown} />
      </Suspense>
    </section>
  );
}

async function ScopeCharts({ scope, days }: { scope: ChartScope; days: string[] }) {
  const [activity, { n }, t] = await Promise.all([scopeActivity(db, days[0]!, scope), texts(), getTranslations("charts.scope")]);
  const topic = scope.topicId !== undefined;
  // Only the platforms that have posts: an account has one, and a topic's legend need not list the rest.
  const platforms = PLATFORM_KEYS.filter((p) => activity.posts.some((r) => r.key === p));
  const posts = stackedBars(activity.posts, days, platforms);
  const series = <K extends string>(colors: Record<K, string>, name: (key: K) => string): DailySeries[] =>
    (Object.keys(colors) as K[]).map((key) => ({ key, name: name(key), color: colors[key] }));
  /** One chart of stacked bars per status or decision, with its total in the line under its title. */
  const statusChart = (id: string, title: string, sub: (sum: string) => string, rows: typeof activity.flags, s: DailySeries[]) => {
    const keys = s.map((x) => x.key);
    const data = stackedBars(rows, days, keys);
    return {
      id,
      title,
      sub: sub(n(total(data, keys))),
      empty: isEmptySeries(data, keys),
      chart: <DailyChart data={data} series={s} kind="bar" height={HEIGHT} />,
    };
  };
  const charts = [
    {
      id: "posts",
      title: t("postsTitle"),
      sub: t(topic ? "postsSubTopic" : "postsSubAccount", { total: n(total(posts, platforms)) }),
      empty: platforms.length === 0,
      chart: <PlatformDailyChart data={posts} keys={platforms} kind="bar" height={HEIGHT} />,
    },
    statusChart(
      "flags",
      t("flagsTitle"),
      (sum) => t("flagsSub", { total: sum }),
      activity.flags,
      series(STATUS_COLORS, (status) => t("flagStatus", { status })),
    ),
    statusChart(
      "incidents",
      t("incidentsTitle"),
      (sum) => t(topic ? "incidentsSubTopic" : "incidentsSubAccount", { total: sum }),
      activity.incidents,
      series(INCIDENT_COLORS, (status) => t("incidentStatus", { status })),
    ),
    statusChart(
      "reviews",
      t("reviewsTitle"),
      (sum) => t("reviewsSub", { total: sum }),
      activity.reviews,
      series(DECISION_COLORS, (decision) => t("decision", { decision })),
    ),
  ];
  if (charts.every((c) => c.empty)) return <Empty>{t("allEmpty")}</Empty>;
  return (
    <div className="scope-charts">
      {charts.map((c) => (
        <div key={c.id} data-testid={`scope-chart-${c.id}`}>
          <h3>{c.title}</h3>
          <p className="chart-sub">{c.sub}</p>
          {c.empty ? <Empty>{t("empty")}</Empty> : c.chart}
        </div>
      ))}
    </div>
  );
}
