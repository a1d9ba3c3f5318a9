/**
 * An incident's heat and burst flag: written here, and only here (crawler/incidents owns the
 * Incident table; the clustering keeps its figures — size, authors, platforms, replies, flagged and
 * negative counts — current, this module reads them).
 *
 * Heat (higher is hotter; a handful of posts is about 10–30, a campus-wide event 60 and more):
 *
 *   base  = ln(1+posts) + 0.8·ln(1+authors) + 0.6·(platforms − 1) + 0.4·ln(1+replies) + 0.8·ln(1+posts in the last 6 h)
 *   heat  = 10 · base · (1 + 0.5·negative share) · (1.25 if bursting) · 2^(−hours since its last post / 24)
 *
 * Logarithms because the hundredth repost says less than the second; distinct authors and
 * platforms because spread is what makes an incident matter; growth (the last six hours) so a
 * rising incident outranks a large old one; the share of negative posts (Post.sentiment) because
 * complaints are what a 舆情 office acts on. The decay halves heat for each day without a new post,
 * so the periodic job (crawler/jobs, `incidents`) lowers it when nothing happens.
 *
 * Burst: the Poisson/EWMA model of ./bursts.ts, against two baselines — the incident's own hourly
 * rate before the last hour, and its topic's usual hourly rate of flagged posts. burstScore is the
 * smaller z-score (it must be unusual for itself and for its topic: a big topic's ordinary hour is
 * not a burst of one of its incidents); an incident without a topic is judged on its own rate.
 */
import type { Db } from "../../lib/db";
import { BURST_DEFAULTS, burstVerdict, ewmaRate, hourlyCounts, HOUR_MS, topicMentionTimes, type BurstOptions, type RateVerdict } from "./bursts";

/** The figures heat is made of. */
export interface HeatInput {
  size: number;
  authorCount: number;
  platformCount: number;
  replyCount: number;
  negativeCount: number;
  /** Member posts published in the last six hours. */
  growth6h: number;
  bursting: boolean;
  /** Hours since its latest post (0 when it is newer than now). */
  hoursSinceLast: number;
}

/** The heat of an incident (see the module comment), rounded to 0.1. */
export function heatOf(f: HeatInput): number {
  const base =
    Math.log1p(Math.max(0, f.size)) +
    0.8 * Math.log1p(Math.max(0, f.authorCount)) +
    0.6 * Math.max(0, f.platformCount - 1) +
    0.4 * Math.log1p(Math.max(0, f.replyCount)) +
    0.8 * Math.log1p(Math.max(0, f.growth6h));
  const negativeShare = f.size > 0 ? Math.min(1, Math.max(0, f.negativeCount) / f.size) : 0;
  const decay = Math.pow(2, -Math.max(0, f.hoursSinceLast) / 24);
  return Math.round(10 * base * (1 + 0.5 * negativeShare) * (f.bursting ? 1.25 : 1) * decay * 10) / 10;
}

/** An incident's burst verdict: the smaller of its own and its topic's z (see the module comment). */
export interface IncidentRate extends RateVerdict {
  own: RateVerdict;
  topic: RateVerdict | null;
}

/** Statuses whose heat is kept: a dismissed or merged incident keeps its last figures. */
const LIVE = ["candidate", "open", "handled"];

type Row = {
  id: number;
  topicId: number | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  size: number;
  authorCount: number;
  platformCount: number;
  replyCount: number;
  negativeCount: number;
  updatedAt: Date;
};
const ROW = {
  id: true,
  topicId: true,
  firstSeenAt: true,
  lastSeenAt: true,
  size: true,
  authorCount: true,
  platformCount: true,
  replyCount: true,
  negativeCount: true,
  updatedAt: true,
} as const;

/** A topic's expected flagged posts per hour at `now` (cached per call of {@link recomputeHeat}). */
async function topicRate(db: Db, topicId: number, now: Date, o: BurstOptions): Promise<number> {
  const times = await topicMentionTimes(db, topicId, now, o);
  return ewmaRate(hourlyCounts(times, now, o.baselineHours).baseline, o.halfLifeHours);
}

/** The burst verdict of one incident at `now`, from its members' publishedAt. */
export async function incidentRate(
  db: Db,
  incident: Row,
  now: Date,
  options: Partial<BurstOptions> = {},
  topicExpected?: number | null,
): Promise<IncidentRate> {
  const o = { ...BURST_DEFAULTS, ...options };
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const [recent, before] = await Promise.all([
    db.post.count({ where: { incident: { is: { incidentId: incident.id } }, publishedAt: { gt: hourAgo } } }),
    db.post.count({ where: { incident: { is: { incidentId: incident.id } }, publishedAt: { lte: hourAgo } } }),
  ]);
  // Its own rate before the last hour: posts per hour of its life until then (at least one hour).
  const lifeHours = Math.max(1, (hourAgo.getTime() - incident.firstSeenAt.getTime()) / HOUR_MS);
  const own = burstVerdict(recent, before / lifeHours, o);
  const expected = topicExpected !== undefined ? topicExpected : incident.topicId != null ? await topicRate(db, incident.topicId, now, o) : null;
  const topic = expected === null ? null : burstVerdict(recent, expected, o);
  const worst = topic && topic.z < own.z ? topic : own;
  return { ...worst, bursting: own.bursting && (topic?.bursting ?? true), own, topic };
}

/** Which incidents {@link recomputeHeat} reads. */
export type HeatScope = { updatedSince: Date } | { ids: readonly number[] } | { live: true };

/**
 * Recompute heat, bursting and burstScore of the incidents in `scope` at `now`: those a run updated
 * (`updatedSince` its start), given ids, or every live one (the periodic job: candidate, open and
 * handled incidents with heat left or a post in the last week). `updatedAt` is kept as it was: it
 * says when membership last changed, which heat does not. Returns how many were written.
 */
export async function recomputeHeat(db: Db, scope: HeatScope, now: Date, options: Partial<BurstOptions> = {}): Promise<number> {
  const o = { ...BURST_DEFAULTS, ...options };
  const where =
    "updatedSince" in scope
      ? { status: { in: LIVE }, updatedAt: { gte: scope.updatedSince } }
      : "ids" in scope
        ? { id: { in: [...scope.ids] } }
        : { status: { in: LIVE }, OR: [{ heat: { gt: 0.05 } }, { bursting: true }, { lastSeenAt: { gte: new Date(now.getTime() - 7 * 24 * HOUR_MS) } }] };
  const rows: Row[] = await db.incident.findMany({ where, select: ROW, orderBy: { id: "asc" }, take: 5000 });
  const topicRates = new Map<number, number>();
  let written = 0;
  for (const row of rows) {
    let expected: number | null = null;
    if (row.topicId != null) {
      if (!topicRates.has(row.topicId)) topicRates.set(row.topicId, await topicRate(db, row.topicId, now, o));
      expected = topicRates.get(row.topicId)!;
    }
    const rate = await incidentRate(db, row, now, o, expected);
    const growth6h = await db.post.count({ where: { incident: { is: { incidentId: row.id } }, publishedAt: { gt: new Date(now.getTime() - 6 * HOUR_MS) } } });
    const heat = heatOf({
      size: row.size,
      authorCount: row.authorCount,
      platformCount: row.platformCount,
      replyCount: row.replyCount,
      negativeCount: row.negativeCount,
      growth6h,
      bursting: rate.bursting,
      hoursSinceLast: (now.getTime() - row.lastSeenAt.getTime()) / HOUR_MS,
    });
    // updatedAt as it was (Prisma's @updatedAt takes a value given): heat is not a membership change.
    // If its membership changed meanwhile (another run), that run recomputes it: nothing is written here.
    const w = await db.incident.updateMany({
      where: { id: row.id, updatedAt: row.updatedAt },
      data: { heat, bursting: rate.bursting, burstScore: Math.round(rate.z * 100) / 100, updatedAt: row.updatedAt },
    });
    written += w.count;
  }
  return written;
}
