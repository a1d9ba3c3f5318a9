/**
 * Chart series as pure functions of query rows: every bucket present (zeros included, so an axis
 * never skips a quiet day), weekly buckets for long ranges, and summaries for the bar charts.
 * The recharts components only draw what these return.
 */
import { jsonArray, parseJsonColumn } from "../json-column";

export type Bucket = "day" | "week";

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "2026-11-30" plus `n` days. */
export function addDays(day: string, n: number): string {
  return fromMs(toMs(day) + n * DAY_MS);
}

/** The `count` days ending with `endDay`, oldest first. */
export function dayList(endDay: string, count: number): string[] {
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(addDays(endDay, -i));
  return out;
}

/** The Monday of a day's week. */
export function weekStart(day: string): string {
  const dow = new Date(toMs(day)).getUTCDay(); // 0 = Sunday
  return addDays(day, -((dow + 6) % 7));
}

/** Daily buckets up to four months; weekly beyond, so a year is 53 readable bars, not 365 slivers. */
export function bucketFor(days: number): Bucket {
  return days > 120 ? "week" : "day";
}

/** The bucket of a day. */
export function bucketOf(day: string, bucket: Bucket): string {
  return bucket === "week" ? weekStart(day) : day;
}

/** The buckets covering `days`, in order, without repeats. */
export function bucketList(days: readonly string[], bucket: Bucket): string[] {
  return [...new Set(days.map((d) => bucketOf(d, bucket)))];
}

/** "11/30" for a bucket (the week's Monday for weekly buckets). */
export function bucketLabel(key: string): string {
  return `${key.slice(5, 7)}/${key.slice(8, 10)}`;
}

export type StackedPoint = { bucket: string; label: string } & Record<string, number | string>;

/**
 * Rows of (day, key, n) as one point per bucket with a number for every key (0 when absent).
 * Rows outside `days` and keys not in `keys` are ignored.
 */
export function toStackedSeries(
  rows: readonly { day: string; key: string; n: number }[],
  days: readonly string[],
  keys: readonly string[],
  bucket: Bucket,
): StackedPoint[] {
  const inRange = new Set(days);
  const buckets = bucketList(days, bucket);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const points: StackedPoint[] = buckets.map((b) => {
    const p: StackedPoint = { bucket: b, label: bucketLabel(b) };
    for (const k of keys) p[k] = 0;
    return p;
  });
  const known = new Set(keys);
  for (const r of rows) {
    if (!inRange.has(r.day) || !known.has(r.key)) continue;
    const p = points[index.get(bucketOf(r.day, bucket))!]!;
    p[r.key] = (p[r.key] as number) + r.n;
  }
  return points;
}

/** True when every value of every key is zero (or there are no points): the chart says "no data". */
export function isEmptySeries(points: readonly Record<string, unknown>[], keys: readonly string[]): boolean {
  return points.every((p) => keys.every((k) => !p[k]));
}

export interface TopicRate {
  topicId: number;
  topic: string;
  open: number;
  confirmed: number;
  dismissed: number;
  total: number;
  /** Flags per 1,000 posts in the range. */
  perThousand: number;
  /** Share of reviewed flags that were confirmed (null before any review). */
  precision: number | null;
}

/** Flags per topic and status, as a rate per 1,000 posts, with the reviewers' confirmation share. */
export function flagRateByTopic(
  rows: readonly { topicId: number; status: string; n: number }[],
  topics: readonly { id: number; name: string }[],
  posts: number,
): TopicRate[] {
  return topics
    .map((t) => {
      const of = (status: string) => rows.filter((r) => r.topicId === t.id && r.status === status).reduce((s, r) => s + r.n, 0);
      const open = of("open");
      const confirmed = of("confirmed");
      const dismissed = of("dismissed");
      const total = open + confirmed + dismissed;
      return {
        topicId: t.id,
        topic: t.name,
        open,
        confirmed,
        dismissed,
        total,
        perThousand: posts > 0 ? Math.round((total / posts) * 10_000) / 10 : 0,
        precision: confirmed + dismissed > 0 ? Math.round((confirmed / (confirmed + dismissed)) * 1000) / 1000 : null,
      };
    })
    .sort((a, b) => b.total - a.total || a.topic.localeCompare(b.topic));
}

export interface TermCount {
  term: string;
  /** Flagged posts whose top terms include it. */
  posts: number;
  /** Summed weight. */
  weight: number;
}

/**
 * The most frequent top terms of flagged posts. `topTerms` is each classification's JSON
 * [{term, weight}]; sensitive words found count too. Bad JSON is skipped.
 */
export function topTermCounts(rows: readonly { topTerms: string; sensitiveHits?: string }[], limit = 15): TermCount[] {
  const counts = new Map<string, TermCount>();
  for (const r of rows) {
    const seen = new Set<string>();
    const add = (term: unknown, weight: number) => {
      if (typeof term !== "string" || !term.trim() || seen.has(term)) return;
      seen.add(term);
      const c = counts.get(term) ?? { term, posts: 0, weight: 0 };
      c.posts++;
      c.weight += Number.isFinite(weight) ? weight : 0;
      counts.set(term, c);
    };
    for (const t of parseList(r.topTerms)) if (t && typeof t === "object") add((t as { term?: unknown }).term, Number((t as { weight?: unknown }).weight));
    for (const w of parseList(r.sensitiveHits)) add(w, 0);
  }
  return [...counts.values()]
    .map((c) => ({ ...c, weight: Math.round(c.weight * 1000) / 1000 }))
    .sort((a, b) => b.posts - a.posts || b.weight - a.weight || a.term.localeCompare(b.term))
    .slice(0, limit);
}

function parseList(json: string | undefined): unknown[] {
  return parseJsonColumn(json, jsonArray, []);
}

export interface HealthPoint {
  bucket: string;
  label: string;
  runs: number;
  failed: number;
  errors: number;
  blocks: number;
  pages: number;
  /** Pages fetched per minute of crawling (null when nothing ran). */
  pagesPerMinute: number | null;
}

/** Crawl health per bucket: runs, failures, errors, blocks and crawl speed. */
export function crawlHealthSeries(
  rows: readonly { day: string; runs: number; failed: number; errors: number; blocks: number; pages: number; ms: number }[],
  days: readonly string[],
  bucket: Bucket,
): HealthPoint[] {
  const inRange = new Set(days);
  const points = bucketList(days, bucket).map((b) => ({ bucket: b, label: bucketLabel(b), runs: 0, failed: 0, errors: 0, blocks: 0, pages: 0, ms: 0 }));
  const index = new Map(points.map((p, i) => [p.bucket, i]));
  for (const r of rows) {
    if (!inRange.has(r.day)) continue;
    const p = points[index.get(bucketOf(r.day, bucket))!]!;
    p.runs += r.runs;
    p.failed += r.failed;
    p.errors += r.errors;
    p.blocks += r.blocks;
    p.pages += r.pages;
    p.ms += r.ms;
  }
  return points.map(({ ms, ...p }) => ({ ...p, pagesPerMinute: ms > 0 ? Math.round((p.pages / (ms / 60_000)) * 10) / 10 : null }));
}

export interface AccountActivity {
  accountId: number;
  name: string;
  platform: string;
  posts: number;
  replies: number;
  flags: number;
}

/** Posts, replies and flags per account, busiest first, at most `limit` accounts. */
export function accountActivity(
  postRows: readonly { accountId: number; kind: string; n: number }[],
  flagRows: readonly { accountId: number; n: number }[],
  accounts: readonly { id: number; name: string; platform: string }[],
  limit = 15,
): AccountActivity[] {
  return accounts
    .map((a) => ({
      accountId: a.id,
      name: a.name,
      platform: a.platform,
      posts: postRows.filter((r) => r.accountId === a.id && r.kind === "post").reduce((s, r) => s + r.n, 0),
      replies: postRows.filter((r) => r.accountId === a.id && r.kind === "reply").reduce((s, r) => s + r.n, 0),
      flags: flagRows.filter((r) => r.accountId === a.id).reduce((s, r) => s + r.n, 0),
    }))
    .sort((a, b) => b.posts + b.replies - (a.posts + a.replies) || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** At most `max` items, evenly spaced, always keeping the first and the last. */
export function downsample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max || max < 2) return [...items];
  const out: T[] = [];
  const step = (items.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(items[Math.round(i * step)]!);
  return out;
}

export interface HarvestCurve {
  runId: number;
  name: string;
  points: { crawled: number; rate: number }[];
}

/** Harvest rate (relevant ÷ crawled so far) against pages crawled, one curve per discovery run. */
export function harvestCurves(
  points: readonly { runId: number; crawled: number; relevant: number }[],
  runs: readonly { id: number; name: string }[],
  maxPoints = 200,
): HarvestCurve[] {
  return runs
    .map((run) => {
      const own = points.filter((p) => p.runId === run.id && p.crawled > 0).sort((a, b) => a.crawled - b.crawled);
      return {
        runId: run.id,
        name: run.name,
        points: downsample(own, maxPoints).map((p) => ({ crawled: p.crawled, rate: Math.round((p.relevant / p.crawled) * 1000) / 1000 })),
      };
    })
    .filter((c) => c.points.length > 0);
}
