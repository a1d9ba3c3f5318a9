import { db } from "@/lib/db";
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
import { activityPerAccount, flagsByTopic, flagsPerDay, harvestRuns, postsPerDay, runsPerDay, weekFlagTerms } from "@/lib/queries/charts";
import { PlatformDailyChart } from "./daily-chart";
import { TopicRateChart } from "./topic-rate-chart";
import { TermsChart } from "./terms-chart";
import { HealthChart } from "./health-chart";
import { ActivityChart } from "./activity-chart";
import { HarvestChart } from "./harvest-chart";

const PLATFORMS = ["weibo", "tieba", "discuz", "blog"];

function ChartPanel({ id, title, sub, children, testId }: { id: string; title: string; sub: string; children: React.ReactNode; testId: string }) {
  return (
    <section className="panel chart-panel" id={id} aria-labelledby={`${id}-h`} data-testid={testId}>
      <h2 id={`${id}-h`}>{title}</h2>
      <p className="chart-sub">{sub}</p>
      {children}
    </section>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="chart-empty" data-testid="chart-empty">
      <div>{children}</div>
    </div>
  );
}

const per = (days: number) => (bucketFor(days) === "week" ? "per week" : "per day");
const total = (xs: { [k: string]: unknown }[], keys: string[]) => xs.reduce((s, p) => s + keys.reduce((t, k) => t + (Number(p[k]) || 0), 0), 0);

export async function PostsSection({ days }: { days: string[] }) {
  const rows = await postsPerDay(db, days[0]!);
  const data = toStackedSeries(rows, days, PLATFORMS, bucketFor(days.length));
  return (
    <ChartPanel id="posts-per-day" testId="chart-posts" title="Posts per day by platform" sub={`Posts and replies stored, ${per(days.length)}, by publication time (Asia/Shanghai) · ${total(data, PLATFORMS).toLocaleString("en-US")} in range`}>
      {isEmptySeries(data, PLATFORMS) ? <Empty>No posts in this range yet. Add an account and crawl it.</Empty> : <PlatformDailyChart data={data} keys={PLATFORMS} kind="bar" />}
    </ChartPanel>
  );
}

export async function FlagsSection({ days }: { days: string[] }) {
  const rows = await flagsPerDay(db, days[0]!);
  const data = toStackedSeries(rows, days, PLATFORMS, bucketFor(days.length));
  return (
    <ChartPanel id="flags-per-day" testId="chart-flags" title="Flags per day by platform" sub={`Flagged posts ${per(days.length)} by the post's publication day · ${total(data, PLATFORMS).toLocaleString("en-US")} in range`}>
      {isEmptySeries(data, PLATFORMS) ? <Empty>No flags in this range. Flags appear when a crawled post matches a topic.</Empty> : <PlatformDailyChart data={data} keys={PLATFORMS} kind="bar" />}
    </ChartPanel>
  );
}

export async function TopicRateSection({ days }: { days: string[] }) {
  const { rows, topics, posts } = await flagsByTopic(db, days[0]!);
  const data = flagRateByTopic(rows, topics, posts);
  return (
    <ChartPanel id="flag-rate" testId="chart-topic-rate" title="Flag rate per topic" sub="Flags by review status; ‰ = flags per 1,000 posts in range">
      {topics.length === 0 ? (
        <Empty>No topics yet. Create a topic to start flagging posts.</Empty>
      ) : data.every((d) => d.total === 0) ? (
        <Empty>No flags for any topic in this range.</Empty>
      ) : (
        <>
          <TopicRateChart data={data} />
          <table className="data compact" data-testid="topic-rate-table">
            <thead>
              <tr>
                <th>Topic</th>
                <th className="num">Unreviewed</th>
                <th className="num">Confirmed</th>
                <th className="num">Dismissed</th>
                <th className="num">‰ posts</th>
                <th className="num" title="Share of reviewed flags that were confirmed">Confirmed %</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.topicId}>
                  <td>{d.topic}</td>
                  <td className="num">{d.open.toLocaleString("en-US")}</td>
                  <td className="num">{d.confirmed.toLocaleString("en-US")}</td>
                  <td className="num">{d.dismissed.toLocaleString("en-US")}</td>
                  <td className="num">{d.perThousand}</td>
                  <td className="num">{d.precision === null ? "—" : `${Math.round(d.precision * 100)}%`}</td>
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
  return (
    <ChartPanel id="top-terms" testId="chart-terms" title="Top terms of this week's flagged posts" sub={`Classifier top terms and sensitive words of ${rows.length.toLocaleString("en-US")} flags from the last 7 days (dismissed flags left out)`}>
      {data.length === 0 ? <Empty>No flagged posts with terms in the last 7 days.</Empty> : <TermsChart data={data} />}
    </ChartPanel>
  );
}

export async function HealthSection({ days }: { days: string[] }) {
  const rows = await runsPerDay(db, days[0]!);
  const data = crawlHealthSeries(rows, days, bucketFor(days.length));
  const sum = (k: "runs" | "errors" | "blocks" | "failed") => data.reduce((s, p) => s + p[k], 0);
  return (
    <ChartPanel id="crawl-health" testId="chart-health" title="Crawl health" sub={`${sum("runs").toLocaleString("en-US")} runs (${sum("failed").toLocaleString("en-US")} failed), ${sum("errors").toLocaleString("en-US")} errors, ${sum("blocks").toLocaleString("en-US")} blocks ${per(days.length)}; line: pages per minute of crawling`}>
      {sum("runs") === 0 ? <Empty>No crawl runs in this range.</Empty> : <HealthChart data={data} />}
    </ChartPanel>
  );
}

export async function ActivitySection({ days }: { days: string[] }) {
  const { posts, flags, accounts } = await activityPerAccount(db, days[0]!);
  const data = accountActivity(posts, flags, accounts, 15);
  return (
    <ChartPanel id="account-activity" testId="chart-accounts" title="Per-account activity" sub={`Posts, replies and flags per account in range (the ${Math.min(15, accounts.length)} busiest of ${accounts.length})`}>
      {accounts.length === 0 ? <Empty>No accounts yet.</Empty> : data.every((d) => d.posts + d.replies === 0) ? <Empty>No posts from any account in this range.</Empty> : <ActivityChart data={data} />}
    </ChartPanel>
  );
}

export async function HarvestSection() {
  const { runs, points } = await harvestRuns(db);
  const curves = harvestCurves(
    points,
    runs.map((r) => ({ id: r.id, name: `#${r.id} ${r.strategy} · ${r.topic.name} (${r.relevant}/${r.crawled})` })),
  );
  return (
    <ChartPanel id="harvest" testId="chart-harvest" title="Harvest rate of discovery runs" sub="Relevant pages ÷ pages crawled so far, for the newest discovery runs">
      {curves.length === 0 ? <Empty>No discovery runs yet. Discovery starts from a seed set and a topic.</Empty> : <HarvestChart curves={curves} />}
    </ChartPanel>
  );
}
