/**
 * Burst detection: is something being said much more often now than usual? One rate model serves
 * incidents (crawler/incidents/heat.ts), topics and a topic's keywords ("考试 mentions are 6× their
 * usual rate in the last hour").
 *
 * The model is a **Poisson z-score against an EWMA baseline**, on hourly buckets:
 *
 * - the baseline λ is the exponentially weighted mean of the hourly counts of the `baselineHours`
 *   before the last hour (half-life `halfLifeHours`), never below `minRate` (a word never seen
 *   before is not "infinitely" bursty: its first few mentions are compared with a small prior);
 * - the last hour's count c is compared with it as a Poisson count (variance = mean):
 *   z = (c − λ) / √λ, and ratio = c / λ;
 * - it bursts when z ≥ `zThreshold`, c ≥ `minCount` and ratio ≥ `minRatio`.
 *
 * Why this rather than Kleinberg's two-state automaton: it is online and needs only the bucketed
 * counts of a window (re-evaluated at the end of every run and by the periodic job, with no state
 * kept between them), it is cheap enough to run for every incident a run touched, and it gives
 * figures a reader understands — "12 posts in the last hour, about 6× the usual rate" — which the
 * alert texts quote. Kleinberg's automaton is a batch method over the whole arrival sequence: its
 * answer for the past can change as posts arrive, and its state-cost parameters have no meaning a
 * 舆情 office can set. The floor and the three thresholds keep a quiet word's 1 → 2 mentions from
 * counting as a burst (Poisson counts are noisy at small means).
 */
import type { Db } from "../../lib/db";
import { jsonArray, parseJsonColumn } from "../../lib/json-column";

/** One bucket of the rate model. */
export const HOUR_MS = 3_600_000;

/** The model's settings. */
export interface BurstOptions {
  /** Hours before the last hour that make the baseline. @default 168 (a week: weekday rhythms included) */
  baselineHours: number;
  /** Half-life of the EWMA, in hours. @default 24 */
  halfLifeHours: number;
  /** The baseline's floor, in mentions per hour. @default 0.2 */
  minRate: number;
  /** @default 3 */
  zThreshold: number;
  /** Fewest mentions in the last hour that can burst. @default 5 */
  minCount: number;
  /** Smallest ratio of the last hour to the baseline that can burst. @default 2 */
  minRatio: number;
}

export const BURST_DEFAULTS: Readonly<BurstOptions> = { baselineHours: 168, halfLifeHours: 24, minRate: 0.2, zThreshold: 3, minCount: 5, minRatio: 2 };

/** What the model says of one series. */
export interface RateVerdict {
  /** Mentions in the last hour. */
  recent: number;
  /** The expected mentions per hour (the EWMA baseline, at least the floor). */
  baseline: number;
  /** recent / baseline. */
  ratio: number;
  /** The Poisson z-score (recent − baseline) / √baseline. */
  z: number;
  bursting: boolean;
}

/**
 * Hourly counts of `times` ending at `now`: `hours` baseline buckets, oldest first, then the last
 * hour's count. Times after `now` count in the last hour (a clock a little ahead); times before
 * the window are left out.
 */
export function hourlyCounts(times: readonly Date[], now: Date, hours: number): { baseline: number[]; recent: number } {
  const end = now.getTime();
  const baseline = new Array<number>(hours).fill(0);
  let recent = 0;
  for (const t of times) {
    const age = end - t.getTime();
    if (age < HOUR_MS) recent++;
    else {
      const bucket = Math.floor(age / HOUR_MS) - 1;
      if (bucket < hours) baseline[hours - 1 - bucket]!++;
    }
  }
  return { baseline, recent };
}

/** The EWMA of hourly counts (oldest first), starting from their mean; 0 for no buckets. */
export function ewmaRate(counts: readonly number[], halfLifeHours: number): number {
  if (counts.length === 0) return 0;
  const alpha = 1 - Math.pow(0.5, 1 / Math.max(halfLifeHours, 1e-9));
  let s = counts.reduce((a, b) => a + b, 0) / counts.length;
  for (const c of counts) s = alpha * c + (1 - alpha) * s;
  return s;
}

/** The verdict for a last-hour count against an expected hourly rate. */
export function burstVerdict(recent: number, expected: number, options: Partial<BurstOptions> = {}): RateVerdict {
  const o = { ...BURST_DEFAULTS, ...options };
  const baseline = Math.max(expected, o.minRate);
  const z = (recent - baseline) / Math.sqrt(baseline);
  const ratio = recent / baseline;
  return { recent, baseline, ratio, z, bursting: z >= o.zThreshold && recent >= o.minCount && ratio >= o.minRatio };
}

/** The verdict of a series of mention times at `now`. */
export function rateOf(times: readonly Date[], now: Date, options: Partial<BurstOptions> = {}): RateVerdict {
  const o = { ...BURST_DEFAULTS, ...options };
  const { baseline, recent } = hourlyCounts(times, now, o.baselineHours);
  return burstVerdict(recent, ewmaRate(baseline, o.halfLifeHours), o);
}

/** The start of the window a verdict at `now` reads. */
export function windowStart(now: Date, options: Partial<BurstOptions> = {}): Date {
  return new Date(now.getTime() - ((options.baselineHours ?? BURST_DEFAULTS.baselineHours) + 1) * HOUR_MS);
}

/**
 * The plain words of a topic's keyword list that mentions are counted for: rule syntax is left out
 * (`!exclude` words, `/regex/` patterns) and a `+must` word counts as its word; at most 20 words.
 */
export function mentionWords(keywordsJson: string): string[] {
  const words: string[] = [];
  for (const k of parseJsonColumn(keywordsJson, jsonArray, [])) {
    if (typeof k !== "string") continue;
    const w = k.trim().replace(/^\+/, "");
    if (!w || w.startsWith("!") || /^\/.*\/[a-z]*$/.test(w) || w.length > 30) continue;
    if (!words.includes(w)) words.push(w);
  }
  return words.slice(0, 20);
}

/** A topic's mentions: its flagged posts (a dismissed flag is not one), by publishedAt. */
export async function topicMentionTimes(db: Db, topicId: number, now: Date, options: Partial<BurstOptions> = {}): Promise<Date[]> {
  const rows = await db.flag.findMany({
    where: { topicId, status: { not: "dismissed" }, post: { publishedAt: { gte: windowStart(now, options), lte: now } } },
    select: { post: { select: { publishedAt: true } } },
  });
  return rows.map((r) => r.post.publishedAt);
}

/** A keyword's mentions: stored posts and replies whose title or text contains it, by publishedAt. */
export async function keywordMentionTimes(db: Db, word: string, now: Date, options: Partial<BurstOptions> = {}): Promise<Date[]> {
  const rows = await db.post.findMany({
    where: { publishedAt: { gte: windowStart(now, options), lte: now }, OR: [{ text: { contains: word } }, { title: { contains: word } }] },
    select: { publishedAt: true },
  });
  return rows.map((r) => r.publishedAt);
}

/** One series of a topic's burst report. */
export interface MentionBurst extends RateVerdict {
  /** null for the topic as a whole, else the keyword. */
  keyword: string | null;
  /** Hourly counts of the last 24 hours, oldest first (the last is the last hour): a sparkline. */
  last24: number[];
}

/** The topic's and each of its keywords' rates at `now`, the topic first, then keywords by ratio. */
export async function topicBursts(db: Db, topic: { id: number; keywords: string }, now: Date, options: Partial<BurstOptions> = {}): Promise<MentionBurst[]> {
  const o = { ...BURST_DEFAULTS, ...options };
  const series = (keyword: string | null, times: Date[]): MentionBurst => {
    const { baseline, recent } = hourlyCounts(times, now, o.baselineHours);
    return { keyword, ...burstVerdict(recent, ewmaRate(baseline, o.halfLifeHours), o), last24: [...baseline.slice(-23), recent] };
  };
  const out = [series(null, await topicMentionTimes(db, topic.id, now, o))];
  const words = await Promise.all(mentionWords(topic.keywords).map(async (w) => series(w, await keywordMentionTimes(db, w, now, o))));
  out.push(...words.sort((a, b) => Number(b.bursting) - Number(a.bursting) || b.ratio - a.ratio));
  return out;
}
