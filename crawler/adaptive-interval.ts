/**
 * Adaptive intervals (an account's `adaptive` setting): a quiet account is polled less often and a
 * busy one more often, between its minimum and maximum interval, so the same request budget finds
 * new posts sooner.
 *
 * The rule is the square-root rule of polling for freshness: with an account posting at rate r and
 * polled every I, a new item waits I/2 on average, so the latency summed over items is
 * proportional to r·I, while the requests are proportional to 1/I. Minimising Σ rᵢIᵢ for a fixed
 * Σ 1/Iᵢ gives Iᵢ ∝ 1/√rᵢ. Normalised so that the budget equals the fixed schedule's (every account
 * at its cron's base interval B): Iᵢ = B · √(r̄ / rᵢ) with √r̄ the mean of √rᵢ over the adaptive
 * accounts. Then clamped to [min, max]; an account with nothing in the rate window is polled at
 * its maximum; one whose thread is busy right now, or with a post in a bursting or just-active
 * open incident, at its minimum.
 *
 * Pure decisions here ({@link chooseInterval}), plus the statistics they need, read in one grouped
 * query for all adaptive accounts ({@link loadAdaptiveStats}); the scheduler caches those for a
 * minute and asks at each tick.
 */
import type { Db } from "../lib/db";
import { nextRunTimes } from "../lib/validation";

/** Posting rate window: a week covers weekday/weekend rhythm. */
export const RATE_WINDOW_MS = 7 * 24 * 3_600_000;
/** An account with at least this many items published in the last hour is "busy right now". */
export const HOT_ITEMS_PER_HOUR = 3;
/** Smallest minimum interval an account may ask for (one request to its host every 30 s at most). */
export const MIN_ADAPTIVE_S = 30;
/** Largest maximum interval: a week. */
export const MAX_ADAPTIVE_S = 7 * 24 * 3600;

/** Why an interval was chosen: a message code (`accounts.adaptive.reasons.<code>`) and its values. */
export interface IntervalReason {
  code: "hotThread" | "hotIncident" | "quiet" | "rate";
  values: Record<string, number>;
}

/** What {@link chooseInterval} decides from. */
export interface AdaptiveInput {
  /** The account's cron interval (the fixed schedule's). */
  baseS: number;
  minS: number;
  maxS: number;
  /** Items (posts and replies) published per hour over {@link RATE_WINDOW_MS}. */
  ratePerHour: number;
  /** (mean √rate)² over the adaptive accounts: the rate whose interval is the base. */
  refRatePerHour: number;
  /** Busy right now: its thread (items in the last hour) or an incident it is part of. */
  hot: "thread" | "incident" | null;
}

/** The interval for one account, and why. */
export function chooseInterval(i: AdaptiveInput): { intervalS: number; reason: IntervalReason } {
  const clamp = (s: number) => Math.round(Math.min(i.maxS, Math.max(i.minS, s)));
  if (i.hot === "incident") return { intervalS: i.minS, reason: { code: "hotIncident", values: {} } };
  if (i.hot === "thread") return { intervalS: i.minS, reason: { code: "hotThread", values: { items: HOT_ITEMS_PER_HOUR } } };
  if (!(i.ratePerHour > 0)) return { intervalS: i.maxS, reason: { code: "quiet", values: { days: RATE_WINDOW_MS / 86_400_000 } } };
  const ref = i.refRatePerHour > 0 ? i.refRatePerHour : i.ratePerHour;
  const intervalS = clamp(i.baseS * Math.sqrt(ref / i.ratePerHour));
  return { intervalS, reason: { code: "rate", values: { perDay: Math.round(i.ratePerHour * 24 * 10) / 10, baseS: i.baseS } } };
}

/** The interval of a cron expression in seconds (the gap between its next two runs; 0 when unreadable). */
export function cronIntervalS(expr: string, from = new Date()): number {
  try {
    const [a, b] = nextRunTimes(expr, 2, from);
    return a && b ? Math.round((b.getTime() - a.getTime()) / 1000) : 0;
  } catch {
    return 0;
  }
}

/**
 * The cron that ticks an adaptive account: often enough to run it at its minimum interval (every
 * minute from a minimum of a minute up; below, every few seconds); each tick only asks whether the
 * chosen interval has passed since the last run.
 */
export function adaptiveTickCron(minS: number): string {
  if (minS >= 60) return "* * * * *";
  const step = [30, 20, 15, 12, 10, 6, 5].find((d) => d <= minS) ?? 5;
  return `*/${step} * * * * *`;
}

/** Per adaptive account: its rate and whether it is hot; plus the reference rate. */
export interface AdaptiveStats {
  rates: Map<number, number>;
  hot: Map<number, "thread" | "incident">;
  refRatePerHour: number;
}

/** Statistics of the adaptive accounts `ids` at `now`: three grouped queries, whatever their number. */
export async function loadAdaptiveStats(db: Db, ids: readonly number[], now: Date): Promise<AdaptiveStats> {
  const rates = new Map<number, number>();
  const hot = new Map<number, "thread" | "incident">();
  if (ids.length === 0) return { rates, hot, refRatePerHour: 0 };
  const idList = [...ids];
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const [week, lastHour, incident] = await Promise.all([
    db.post.groupBy({
      by: ["accountId"],
      where: { accountId: { in: idList }, publishedAt: { gte: new Date(now.getTime() - RATE_WINDOW_MS), lte: now } },
      _count: { _all: true },
    }),
    db.post.groupBy({ by: ["accountId"], where: { accountId: { in: idList }, publishedAt: { gte: hourAgo, lte: now } }, _count: { _all: true } }),
    db.post.findMany({
      where: {
        accountId: { in: idList },
        incident: { incident: { status: { in: ["candidate", "open"] }, OR: [{ bursting: true }, { lastSeenAt: { gte: hourAgo } }] } },
      },
      select: { accountId: true },
      distinct: ["accountId"],
    }),
  ]);
  for (const r of week) rates.set(r.accountId, r._count._all / (RATE_WINDOW_MS / 3_600_000));
  for (const r of lastHour) if (r._count._all >= HOT_ITEMS_PER_HOUR) hot.set(r.accountId, "thread");
  for (const r of incident) hot.set(r.accountId, "incident");
  const roots = idList.map((id) => Math.sqrt(rates.get(id) ?? 0)).filter((x) => x > 0);
  const meanRoot = roots.length ? roots.reduce((a, b) => a + b, 0) / roots.length : 0;
  return { rates, hot, refRatePerHour: meanRoot * meanRoot };
}
